package strategy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"kestrel/store/sqlite"
	"kestrel/strategy"
)

// versionEngine is an engine over a SQLite file, for saving versions only
// (no market steps).
func versionEngine(b *testing.B) *strategy.Engine {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "k.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	eng, err := strategy.New(ctx, strategy.Deps{Store: st, Market: &market{closes: map[string][]float64{}},
		Clock: &clock{time.Date(2026, 1, 4, 3, 1, 0, 0, time.UTC)}})
	if err != nil {
		b.Fatal(err)
	}
	return eng
}

// BenchmarkSaveVersion: POST /api/strategy/versions' work without HTTP:
// overlay, validation, the numbered insert and the instance's record, on a
// SQLite file with synchronous commits.
func BenchmarkSaveVersion(b *testing.B) {
	eng := versionEngine(b)
	ctx := context.Background()
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		p := json.RawMessage(fmt.Sprintf(`{"indicators":{"rsi_period":%d}}`, 2+i%40))
		if _, err := eng.SaveVersion(ctx, strategy.TechnicalName, p, strategy.Meta{Note: "bench"}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkListVersions: GET /api/strategy/versions' work for an instance
// with 1,000 versions (each read back into its configuration's params).
func BenchmarkListVersions(b *testing.B) {
	eng := versionEngine(b)
	ctx := context.Background()
	for i := range 999 {
		p := json.RawMessage(fmt.Sprintf(`{"indicators":{"rsi_period":%d}}`, 2+i%40))
		if _, err := eng.SaveVersion(ctx, strategy.TechnicalName, p, strategy.Meta{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		vs, err := eng.Versions(ctx, strategy.TechnicalName)
		if err != nil || len(vs) != 1000 {
			b.Fatalf("%d versions, %v", len(vs), err)
		}
	}
}
