package candles

import (
	"bytes"
	"testing"
)

// FuzzParseOHLCV: any input either parses into ascending candles or fails
// with an error naming a line; it never panics.
func FuzzParseOHLCV(f *testing.F) {
	f.Add([]byte("time,open,high,low,close,volume\n1714000000,1,2,0.5,1.5,10\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		bars, err := ReadOHLCV(bytes.NewReader(in))
		if err != nil {
			if !bytes.HasPrefix([]byte(err.Error()), []byte("line ")) && !bytes.HasPrefix([]byte(err.Error()), []byte("after line ")) {
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
