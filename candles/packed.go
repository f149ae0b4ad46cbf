package candles

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"
)

// The shipped candles are embedded packed (data/*.kcp), made from the CSVs
// beside them by `go generate ./candles` (packgen). A restart decodes them:
// unpacking all four symbols takes milliseconds, where gzip and text parsing
// took about 90 ms of CPU per symbol, most of a restart. The CSVs stay the
// record of provenance, and a test checks every packed row against them.
//
// Format (integers are varints as encoding/binary writes them):
//
//	"KCP1"
//	count          uvarint
//	price digits   byte: prices are whole multiples of 10^-digits
//	volume digits  byte: likewise for volumes
//	first time     uvarint, Unix seconds
//	count rows of:
//	  step         uvarint: (time - previous time) / Width (0 on the first row)
//	  open         varint: open - previous close (0 before the first), in price units
//	  high, low, close  varint: each minus open, in price units
//	  volume       uvarint, in volume units
const packMagic = "KCP1"

// Pack writes rows (ascending, Width apart or more, as the shipped data is)
// in the packed form.
func pack(rows []row) ([]byte, error) {
	if len(rows) == 0 {
		return nil, errors.New("no rows")
	}
	pd, vd := 0, 0 // the most decimal places any price, any volume uses
	for _, r := range rows {
		pd = max(pd, digits(r.o), digits(r.h), digits(r.l), digits(r.c))
		vd = max(vd, digits(r.volume))
	}
	pu, vu := pow10[scale-pd], pow10[scale-vd]
	out := append([]byte(packMagic), make([]byte, 0, 16*len(rows))...)
	out = binary.AppendUvarint(out, uint64(len(rows)))
	out = append(out, byte(pd), byte(vd))
	out = binary.AppendUvarint(out, uint64(rows[0].t))
	w := int64(Width / time.Second)
	prev := row{t: rows[0].t}
	for i, r := range rows {
		step := r.t - prev.t
		if r.t < 0 || step%w != 0 || (i > 0 && step <= 0) {
			return nil, fmt.Errorf("row %d: time %d is not a later multiple of %s", i, r.t, Width)
		}
		if r.o < 0 || r.h < 0 || r.l < 0 || r.c < 0 || r.volume < 0 {
			return nil, fmt.Errorf("row %d: negative value", i)
		}
		out = binary.AppendUvarint(out, uint64(step/w))
		out = binary.AppendVarint(out, (r.o-prev.c)/pu)
		out = binary.AppendVarint(out, (r.h-r.o)/pu)
		out = binary.AppendVarint(out, (r.l-r.o)/pu)
		out = binary.AppendVarint(out, (r.c-r.o)/pu)
		out = binary.AppendUvarint(out, uint64(r.volume/vu))
		prev = r
	}
	return out, nil
}

// packed is a series held in the packed form and read on demand: the
// shipped candles stay in the executable's read-only data (pages the
// system can drop and read again) instead of 14 MB of rows on the heap,
// and a row costs decoding at most blockRows rows from the mark before it.
type packed struct {
	n      int
	data   []byte // the rows, after the header
	pu, vu int64  // price and volume units, x 10^8
	marks  []mark // one every blockRows rows
}

// blockRows is how many rows a mark covers: reading a row decodes half as
// many on average (about a microsecond) and the marks of the four shipped
// symbols take about 150 kB.
const blockRows = 64

// mark is where the decoding of row k*blockRows starts.
type mark struct {
	t     int64 // that row's time (what Index searches)
	prevT int64 // the time before it (the first row's own)
	prevC int64 // the close before it (0 before the first)
	off   int   // its offset in data
}

// unpackSeries checks b whole (every row decodes, times ascend, nothing
// trails) and marks it for reading.
func unpackSeries(b []byte) (*packed, error) {
	if len(b) < len(packMagic) || string(b[:len(packMagic)]) != packMagic {
		return nil, errors.New("not packed candles")
	}
	d := decoder{b: b[len(packMagic):]}
	n := d.uvarint()
	if d.err != nil || n == 0 || n > uint64(len(d.b)) { // every row takes bytes
		return nil, errors.New("packed candles: bad count")
	}
	if len(d.b) < 2 || d.b[0] > scale || d.b[1] > scale {
		return nil, errors.New("packed candles: bad digits")
	}
	p := &packed{n: int(n), pu: pow10[scale-int(d.b[0])], vu: pow10[scale-int(d.b[1])]}
	d.b = d.b[2:]
	t := int64(d.uvarint())
	if d.err != nil {
		return nil, errors.New("packed candles: bad first time")
	}
	p.data = d.b
	p.marks = make([]mark, 0, (p.n+blockRows-1)/blockRows)
	cur := cursor{p: p, d: decoder{b: p.data}, t: t}
	for i := range p.n {
		if i%blockRows == 0 {
			p.marks = append(p.marks, mark{prevT: cur.t, prevC: cur.c, off: len(p.data) - len(cur.d.b)})
		}
		r, err := cur.next()
		if err != nil {
			return nil, fmt.Errorf("packed candles: row %d: %w", i, err)
		}
		if i%blockRows == 0 {
			p.marks[len(p.marks)-1].t = r.t
		}
	}
	if len(cur.d.b) != 0 {
		return nil, errors.New("packed candles: trailing bytes")
	}
	return p, nil
}

// cursor decodes rows one after another.
type cursor struct {
	p    *packed
	d    decoder
	t, c int64 // the previous row's time and close
	i    int   // rows decoded since the first (for the ascending check)
}

// from starts a cursor at row i's mark, and skips to row i.
func (p *packed) from(i int) cursor {
	m := p.marks[i/blockRows]
	cur := cursor{p: p, d: decoder{b: p.data[m.off:]}, t: m.prevT, c: m.prevC, i: i - i%blockRows}
	for range i % blockRows {
		_, _ = cur.next() // checked when unpacked
	}
	return cur
}

func (cur *cursor) next() (row, error) {
	w := int64(Width / time.Second)
	step := int64(cur.d.uvarint())
	o := cur.c + cur.d.varint()*cur.p.pu
	r := row{t: cur.t + step*w, o: o, h: o + cur.d.varint()*cur.p.pu, l: o + cur.d.varint()*cur.p.pu, c: o + cur.d.varint()*cur.p.pu,
		volume: int64(cur.d.uvarint()) * cur.p.vu}
	if cur.d.err != nil {
		return r, cur.d.err
	}
	if cur.i > 0 && step <= 0 {
		return r, errors.New("time not ascending")
	}
	cur.i++
	cur.t, cur.c = r.t, r.c
	return r, nil
}

// row returns row i.
func (p *packed) row(i int) row {
	cur := p.from(i)
	r, _ := cur.next()
	return r
}

// index is the position of the first row at or after Unix time u.
func (p *packed) index(u int64) int {
	i, _, _ := p.seek(u)
	return i
}

// seek is index(u) with the row there, decoded once (ok is false when
// every row is before u).
func (p *packed) seek(u int64) (int, row, bool) {
	k := sort.Search(len(p.marks), func(k int) bool { return p.marks[k].t >= u })
	if k == 0 {
		return 0, p.row(0), p.n > 0
	}
	// The row is in block k-1 or is the first of block k.
	lo, end := (k-1)*blockRows, min(k*blockRows, p.n)
	cur := p.from(lo)
	for i := lo; i < end; i++ {
		if r, _ := cur.next(); r.t >= u {
			return i, r, true
		}
	}
	if end < p.n {
		return end, p.row(end), true
	}
	return end, row{}, false
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err, d.b = errors.New("truncated"), nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, d.b = errors.New("truncated"), nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

// digits is how many of the 8 decimal places v (x 10^8) uses.
func digits(v int64) int {
	d := scale
	for d > 0 && v%10 == 0 {
		v /= 10
		d--
	}
	return d
}

// PackCSV packs a shipped-format CSV (`date,open,high,low,close,volume`,
// 15-minute rows): packgen makes data/*.kcp with it.
func PackCSV(r io.Reader) ([]byte, error) {
	rows, err := parseRows(r)
	if err != nil {
		return nil, err
	}
	return pack(rows)
}
