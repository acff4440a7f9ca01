@testable import MediaKit
import Testing

/// ASS event text to SubRip/WebVTT cue text, and cue times: pure functions.
@Suite struct CueTextTests {
    @Test func italicBoldUnderlineBecomeTagsAndOtherOverridesGo() {
        #expect(ASSText.cueText(#"{\i1}fra #1 :{\i0} Voix"#, flavor: .srt) == "<i>fra #1 :</i> Voix")
        #expect(ASSText.cueText(#"{\b1}bold {\i1}both{\b0} italic{\i0}"#, flavor: .srt) == "<b>bold <i>both</i></b><i> italic</i>")
        #expect(ASSText.cueText(#"{\u1\fs20}under{\u0}"#, flavor: .webvtt) == "<u>under</u>")
        #expect(ASSText.cueText(#"{\pos(10,20)\fs40\c&HFF&\blur3\bord2\iclip(1,2,3,4)}Hi"#, flavor: .srt) == "Hi")
        #expect(ASSText.cueText(#"{\b700}heavy{\b400} normal"#, flavor: .srt) == "<b>heavy</b> normal")
        // Left open: closed at the end. \r closes everything.
        #expect(ASSText.cueText(#"{\i1}open"#, flavor: .srt) == "<i>open</i>")
        #expect(ASSText.cueText(#"{\i1\b1}x{\r}y"#, flavor: .srt) == "<i><b>x</b></i>y")
        // Turning on what is on, or off what is off, does nothing.
        #expect(ASSText.cueText(#"{\i1}a{\i1}b{\i0}{\i0}c"#, flavor: .srt) == "<i>ab</i>c")
    }

    @Test func lineBreaksSpacesAndBraces() {
        #expect(ASSText.cueText(#"one\Ntwo\nthree"#, flavor: .srt) == "one\ntwo\nthree")
        #expect(ASSText.cueText(#"a\N\N\Nb"#, flavor: .srt) == "a\nb")
        #expect(ASSText.cueText("carriage\r\nreturn", flavor: .srt) == "carriage\nreturn")
        #expect(ASSText.cueText("a{unclosed", flavor: .srt, dialect: .script) == "a{unclosed")
        // In an ASS script, every {…} is markup or a comment; \h and \{ \} are escapes.
        #expect(ASSText.cueText(#"a\hb {a comment}\{literal\}"#, flavor: .srt, dialect: .script) == "a\u{00A0}b {literal}")
        // In text another decoder made, only {\…} is markup; the rest is text, as ffmpeg reads it.
        #expect(ASSText.cueText(#"C:\path\{braces} {x} \h"#, flavor: .srt, dialect: .decoded) == #"C:\path\{braces} {x} \h"#)
        #expect(ASSText.cueText(#"{\i1}it{\i0}"#, flavor: .srt, dialect: .decoded) == "<i>it</i>")
    }

    @Test func nothingVisibleIsNoCue() {
        #expect(ASSText.cueText("", flavor: .srt) == nil)
        #expect(ASSText.cueText("   ", flavor: .srt) == nil)
        #expect(ASSText.cueText(#"{\i1}{\i0}"#, flavor: .webvtt) == nil)
        #expect(ASSText.cueText(#"\N\N"#, flavor: .srt) == nil)
    }

    @Test func webVTTEscapesMarkupCharacters() {
        #expect(ASSText.cueText("a < b & c > d", flavor: .webvtt) == "a &lt; b &amp; c &gt; d")
        #expect(ASSText.cueText("a --> b", flavor: .webvtt) == "a --&gt; b")
        #expect(ASSText.cueText("a < b & c", flavor: .srt) == "a < b & c")
    }

    @Test func theTextFieldOfAnEventLine() {
        #expect(ASSText.textField(ofEvent: "0,0,Default,,0,0,0,,Hello, world, again") == "Hello, world, again")
        #expect(ASSText.textField(ofEvent: "12,1,Sign,Name,10,10,10,Effect,") == "")
        #expect(ASSText.textField(ofEvent: "no fields") == "no fields")
    }

    @Test func cueTimes() {
        #expect(CueTime.text(0, separator: ",") == "00:00:00,000")
        #expect(CueTime.text(3_723_004, separator: ",") == "01:02:03,004")
        #expect(CueTime.text(59_999, separator: ".") == "00:00:59.999")
        #expect(CueTime.text(360_000_000, separator: ".") == "100:00:00.000")
        #expect(CueTime.text(-5, separator: ".") == "00:00:00.000")
    }
}
