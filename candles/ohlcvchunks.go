package candles

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"
)

// Inputs above this size are parsed in one chunk per processor.
const chunkBytes = 256 * 1024

// chunk is a run of whole lines and where its rows go.
type chunk struct {
	data  []byte
	line  int   // number of its first line
	dst   []Bar // its window of the output: room for one row per line
	first int   // line of its first row, for the order check at the join
	err   error
}

// rows parses data (the lines after the header) into ascending bars.
func (c *columns) rows(data []byte) ([]Bar, error) {
	lines := bytes.Count(data, []byte{'\n'}) + 1
	out := make([]Bar, lines)
	chunks := split(data, out, min(runtime.GOMAXPROCS(0), 8, len(data)/chunkBytes+1))
	var wg sync.WaitGroup
	for i := range chunks {
		wg.Go(func() { chunks[i].parse(c) })
	}
	wg.Wait()
	n := 0
	for _, ch := range chunks {
		if len(ch.dst) > 0 && n > 0 && ch.dst[0].Time <= out[n-1].Time {
			return nil, fmt.Errorf("line %d: %w", ch.first, orderError(ch.dst[0].Time, out[n-1].Time))
		}
		if ch.err != nil {
			return nil, ch.err
		}
		n += copy(out[n:], ch.dst) // moves rows down over the room blank lines left
	}
	return out[:n:n], nil
}

// split cuts data into about n chunks at line ends, each given the window of
// out its lines may fill.
func split(data []byte, out []Bar, n int) []chunk {
	chunks := make([]chunk, 0, n)
	line, at := 2, 0
	for len(data) > 0 {
		end := len(data)
		if len(chunks) < n-1 && len(data) > chunkBytes {
			if i := bytes.IndexByte(data[len(data)/(n-len(chunks)):], '\n'); i >= 0 {
				end = len(data)/(n-len(chunks)) + i + 1
			}
		}
		lines := bytes.Count(data[:end], []byte{'\n'}) + 1
		chunks = append(chunks, chunk{data: data[:end], line: line, dst: out[at:at:min(at+lines, len(out))]})
		data, line, at = data[end:], line+lines-1, at+lines-1
	}
	return chunks
}

// parse fills ch.dst with the chunk's rows; the first error stops it.
func (ch *chunk) parse(c *columns) {
	data := ch.data
	for line := ch.line; len(data) > 0; line++ {
		var text []byte
		text, data = nextLine(data)
		b, err := c.row(text)
		if err == errBlank {
			continue
		}
		if err != nil {
			ch.err = fmt.Errorf("line %d: %w", line, err)
			return
		}
		n := len(ch.dst)
		if n == 0 {
			ch.first = line
		} else if b.Time <= ch.dst[n-1].Time {
			ch.err = fmt.Errorf("line %d: %w", line, orderError(b.Time, ch.dst[n-1].Time))
			return
		}
		ch.dst = append(ch.dst, b)
	}
}
