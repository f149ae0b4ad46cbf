// Command aifake serves a local OpenAI-compatible model (kestrel/ai/aifake)
// for trials and the end-to-end tests of live-model backtests. It prints
// {"url": "http://ADDR/v1"} on its first line, then serves until stopped:
// point api.ai.baseUrl at that URL (provider openai).
//
//	aifake --addr 127.0.0.1:0 --delay 1s
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"kestrel/ai/aifake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	delay := flag.Duration("delay", time.Second, "how long each answer takes")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	_ = json.NewEncoder(os.Stdout).Encode(map[string]string{"url": "http://" + ln.Addr().String() + "/v1"})
	srv := &http.Server{Handler: &aifake.Server{Delay: *delay}, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
