package candles

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseOHLCV: any input either parses into ascending candles or fails
// with an error naming a line; it never panics.
func FuzzParseOHLCV(f *testing.F) {
	f.Add([]byte("time,open,high,low,close,volume\n1714000000,1,2,0.5,1.5,10\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		sameOnBothPaths(t, in)
		bars, err := ReadOHLCV(bytes.NewReader(in))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		for i, b := range bars {
			if i > 0 && b.Time <= bars[i-1].Time {
				t.Fatalf("bar %d not after the previous one", i)
			}
			if b.Open < 0 || b.High < 0 || b.Low < 0 || b.Close < 0 || b.Volume < 0 {
				t.Fatalf("bar %d has a negative value: %+v", i, b)
			}
		}
	})
}

// sameOnBothPaths: every row the fast path takes, the careful path reads the same.
func sameOnBothPaths(t *testing.T, in []byte) {
	header, data := nextLine(in)
	cols, err := headerColumns(header)
	if err != nil {
		return
	}
	for len(data) > 0 {
		var line []byte
		line, data = nextLine(data)
		fast, ok := cols.fastRow(line)
		if !ok {
			continue
		}
		careful, err := cols.carefulRow(line)
		if err != nil || careful != fast {
			t.Fatalf("row %q: fast path %+v, careful path %+v, %v", line, fast, careful, err)
		}
	}
}
