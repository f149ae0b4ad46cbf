package loadgen

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// WSStats is what the WebSocket clients saw.
type WSStats struct {
	Clients   int   // asked for
	Connected int   // connected and subscribed
	Frames    int64 // frames received by all clients
	Dropped   int   // connections that ended before the run did
}

// startWS connects n clients subscribed to symbol's ticker and trades and
// counts the frames they receive until ctx ends.
func startWS(ctx context.Context, bases []string, token, symbol string, n int) <-chan WSStats {
	out := make(chan WSStats, 1)
	if n == 0 {
		out <- WSStats{}
		return out
	}
	var frames atomic.Int64
	var connected, dropped atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wsURL := "ws" + strings.TrimPrefix(bases[i%len(bases)], "http") + "/api/ws"
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
			if err != nil {
				if ctx.Err() == nil {
					dropped.Add(1)
				}
				return
			}
			defer conn.CloseNow()
			conn.SetReadLimit(1 << 20)
			sub := fmt.Sprintf(`{"action":"subscribe","channels":["ticker","trades"],"symbols":[%q]}`, symbol)
			if err := conn.Write(ctx, websocket.MessageText, []byte(sub)); err != nil {
				return
			}
			connected.Add(1)
			for {
				if _, _, err := conn.Read(ctx); err != nil {
					if ctx.Err() == nil {
						dropped.Add(1)
					}
					return
				}
				frames.Add(1)
			}
		}()
	}
	go func() {
		wg.Wait()
		out <- WSStats{Clients: n, Connected: int(connected.Load()), Frames: frames.Load(), Dropped: int(dropped.Load())}
	}()
	return out
}

// RSSStats is the server's resident memory during the run.
type RSSStats struct {
	Start, Peak, End int64 // bytes; zero without a pid
	// PerMinute is the RSS at the end of each whole minute of the run, so
	// a soak shows whether memory stays flat.
	PerMinute []int64
}

// startRSS samples the resident set size of pid every 250 ms until ctx ends.
func startRSS(ctx context.Context, pid int) <-chan RSSStats {
	out := make(chan RSSStats, 1)
	if pid <= 0 {
		out <- RSSStats{}
		return out
	}
	go func() {
		var st RSSStats
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		start := time.Now()
		for {
			if v, err := ReadRSS(pid); err == nil {
				if st.Start == 0 {
					st.Start = v
				}
				st.Peak, st.End = max(st.Peak, v), v
				if m := int(time.Since(start) / time.Minute); m > len(st.PerMinute) {
					st.PerMinute = append(st.PerMinute, v)
				}
			}
			select {
			case <-ctx.Done():
				out <- st
				return
			case <-tick.C:
			}
		}
	}()
	return out
}

// ReadRSS reads a process's resident set size from /proc (Linux).
func ReadRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}
