// Package openapi holds the OpenAPI 3.1 description of Kestrel's /api routes,
// kept by hand next to the handlers and served at GET /api/openapi.json. Tests
// keep it equal to the router's route table (paths, methods, access levels)
// and validate the API tests' responses against it (openapitest); the web
// app's API types are generated from it (web/src/api/schema.d.ts).
package openapi

import _ "embed"

// JSON is the description as served.
//
//go:embed openapi.json
var JSON []byte
