// Command aifake serves a local OpenAI-compatible model (ai/aifake) for
// trials of live-model backtests: point api.ai.baseUrl at http://ADDR/v1.
//
//	aifake --addr 127.0.0.1:18199 --delay 1s
package main

import (
	"flag"
	"log"
	"net/http"
	"time"

	"kestrel/ai/aifake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18199", "listen address")
	delay := flag.Duration("delay", time.Second, "how long each answer takes")
	flag.Parse()
	f := &aifake.Server{Delay: *delay}
	srv := &http.Server{Addr: *addr, Handler: f, ReadHeaderTimeout: 10 * time.Second}
	log.Printf("aifake on http://%s/v1 answering after %s", *addr, *delay)
	log.Fatal(srv.ListenAndServe())
}
