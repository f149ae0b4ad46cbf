package app_test

import (
	"testing"

	"kestrel/domain"
)

// The gateway reaches the sandbox's group commit and live-order index
// through the venue switch; without them every order copies and sorts the
// whole book and commits on its own (a regression once measured at less
// than half the throughput, falling further as orders rest).
func TestGatewaySeesTheSandboxFastPaths(t *testing.T) {
	s := start(t, t.TempDir())
	x := domain.Underlying(s.app.Exchange)
	if _, ok := x.(domain.LiveIndex); !ok {
		t.Errorf("%T behind the venue switch has no live-order index", x)
	}
	if _, ok := x.(domain.OrderPipeline); !ok {
		t.Errorf("%T behind the venue switch has no order pipeline", x)
	}
}
