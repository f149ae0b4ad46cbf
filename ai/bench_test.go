package ai

import (
	"context"
	"testing"
)

// BenchmarkBuiltinDecide is one decision of the built-in analyst on 50
// candles with the full indicator set.
func BenchmarkBuiltinDecide(b *testing.B) {
	r := sampleRequest()
	closes := make([]float64, 50)
	for i := range closes {
		closes[i] = 100 + float64(i%7)
	}
	r.Candles = candles(closes...)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Builtin{}).Decide(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderPrompt renders the v1 prompt for the same request.
func BenchmarkRenderPrompt(b *testing.B) {
	r := sampleRequest()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RenderPrompt(r); err != nil {
			b.Fatal(err)
		}
	}
}
