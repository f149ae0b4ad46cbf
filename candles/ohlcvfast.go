package candles

// fastRow parses the common shape of a row, unquoted and unpadded plain
// numbers and ISO or Unix times, in one pass over its bytes. It reports false
// for anything else, and row then parses the line the careful way (which also
// words the errors).
func (c *columns) fastRow(line []byte) (Bar, bool) {
	var b Bar
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	p := 0
	for i, role := range c.roles {
		end := p
		for end < len(line) && line[end] != ',' {
			end++
		}
		if end == len(line) && i < len(c.roles)-1 {
			return b, false // too few fields
		}
		if !b.fastSet(role, line[p:end]) {
			return b, false
		}
		p = end + 1
	}
	return b, true
}

func (b *Bar) fastSet(role int8, f []byte) bool {
	var ok bool
	switch role {
	case ignored:
		return true
	case timeCol:
		if n, isInt := parseDigits(f); isInt && len(f) > 0 {
			ns, err := unixNanos(n, f)
			b.Time, ok = ns, err == nil
		} else {
			b.Time, ok = fastISO(f)
		}
	case openCol:
		b.Open, ok = parseShortFixed(f)
	case highCol:
		b.High, ok = parseShortFixed(f)
	case lowCol:
		b.Low, ok = parseShortFixed(f)
	case closeCol:
		b.Close, ok = parseShortFixed(f)
	case volumeCol:
		b.Volume, ok = parseShortFixed(f)
	}
	return ok
}
