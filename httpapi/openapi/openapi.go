// Package openapi holds the OpenAPI 3.1 description of Kestrel's /api routes,
// kept by hand next to the handlers and served at GET /api/openapi.json. Tests
// keep it equal to the router's route table (paths, methods, access levels)
// and validate the API tests' responses against it (openapitest); the web
// app's API types are generated from it (web/src/api/schema.d.ts). Each
// operation's x-access and x-token-use are the route table's, written by
// go test ./httpapi -run TestOpenAPIAccess -update.
package openapi

import _ "embed"

// JSON is the description as served.
//
//go:embed openapi.json
var JSON []byte
