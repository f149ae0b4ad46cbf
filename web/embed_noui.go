//go:build noui

// Package web embeds the built single-page app; this build has none.
package web

import "embed"

// Dist is empty in a UI-less build (go build -tags noui).
var Dist embed.FS
