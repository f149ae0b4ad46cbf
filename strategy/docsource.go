package strategy

import _ "embed"

// DocSource is this package's doc.go, the rules in words, for readers
// outside the source tree (the MCP server's resources).
//
//go:embed doc.go
var DocSource []byte
