package main

import (
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	lo, med, p90 := summary([]float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6})
	if lo != 1 || med != 5.5 || p90 != 9 {
		t.Fatalf("summary = %v %v %v, want 1 5.5 9", lo, med, p90)
	}
	if lo, med, p90 := summary([]float64{3}); lo != 3 || med != 3 || p90 != 3 {
		t.Fatalf("one value: %v %v %v", lo, med, p90)
	}
}

// It times a real child process and reports each measure; a failing
// command is an error, not a figure.
func TestRunTimesAChild(t *testing.T) {
	var b strings.Builder
	if err := run([]string{"-n", "3", "--", "true"}, &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 runs of [true]", "wall ", "cpu ", "peak RSS "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output has no %q:\n%s", want, b.String())
		}
	}
	if err := run([]string{"-n", "1", "--", "false"}, &b); err == nil {
		t.Error("a failing command was timed")
	}
	if err := run(nil, &b); err == nil {
		t.Error("no command accepted")
	}
}
