package analytics

import (
	"testing"
	"time"
)

func TestCoverageOf(t *testing.T) {
	now := time.Date(2026, 5, 31, 12, 0, 0, 0, time.UTC)
	asked := now.AddDate(0, 0, -90)
	first := now.AddDate(0, 0, -3)
	if c := CoverageOf(asked, now, false, &first, time.Minute); c.Complete || !c.From.Equal(first) || !c.RequestedFrom.Equal(asked) {
		t.Errorf("3 days of 90: %+v", c)
	}
	if c := CoverageOf(asked, now, true, nil, time.Minute); !c.Complete || !c.From.Equal(asked) {
		t.Errorf("data before the period: %+v", c)
	}
	justAfter := asked.Add(30 * time.Second)
	if c := CoverageOf(asked, now, false, &justAfter, time.Minute); !c.Complete {
		t.Errorf("within the recording interval: %+v", c)
	}
	if c := CoverageOf(asked, now, false, nil, time.Minute); c.Complete || c.From != nil {
		t.Errorf("no data: %+v", c)
	}
	if c := CoverageOf(time.Time{}, now, false, &first, time.Minute); !c.Complete || c.RequestedFrom != nil {
		t.Errorf("all: %+v", c)
	}
}
