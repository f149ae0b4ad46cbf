//go:build !noui

// Package web embeds the built single-page app.
package web

import "embed"

// Dist holds web/dist, produced by `npm run build`.
//
//go:embed all:dist
var Dist embed.FS
