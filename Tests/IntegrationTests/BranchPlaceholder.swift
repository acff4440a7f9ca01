// This branch (thumb-media) was cut before the integration tests landed on main, but its
// Package.swift already declares the IntegrationTests target, which SwiftPM refuses to build
// without a source file. This empty file stands in for them: delete it when main is merged.
