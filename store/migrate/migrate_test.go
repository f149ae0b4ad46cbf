package migrate

import (
	"context"
	"testing"
)

type fake struct {
	done    map[int]bool
	applied []int
}

func (f *fake) AppliedVersions(context.Context) (map[int]bool, error) { return f.done, nil }
func (f *fake) Apply(_ context.Context, m Migration) error {
	f.applied = append(f.applied, m.Version)
	f.done[m.Version] = true
	return nil
}

// A migration numbered below the newest applied one (it landed later) is
// still applied, and nothing runs twice.
func TestUpAppliesEveryMissingVersion(t *testing.T) {
	f := &fake{done: map[int]bool{1: true, 3: true, 10: true}}
	ms := []Migration{{Version: 1}, {Version: 3}, {Version: 7}, {Version: 10}, {Version: 11}}
	if err := Up(context.Background(), f, ms); err != nil {
		t.Fatal(err)
	}
	if len(f.applied) != 2 || f.applied[0] != 7 || f.applied[1] != 11 {
		t.Fatalf("applied %v, want [7 11]", f.applied)
	}
	f.applied = nil
	if err := Up(context.Background(), f, ms); err != nil || len(f.applied) != 0 {
		t.Fatalf("second run applied %v (%v)", f.applied, err)
	}
}
