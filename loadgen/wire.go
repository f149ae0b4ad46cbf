package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"strconv"
	"time"
)

// wireClient speaks HTTP/1.1 on one keep-alive connection with no more than
// a request needs. net/http's client cost about 110 µs of CPU per order
// here, as much as a third of what the server spent, and on a 2-core
// machine the tool's CPU is taken from the server's; this one costs about
// half that. It is used for plain http:// servers; anything it does not
// expect in an answer (no length, an unknown transfer coding) is an error.
type wireClient struct {
	addr, host, token string
	conn              net.Conn
	br                *bufio.Reader
	req               bytes.Buffer
	body              []byte
}

func newWireClient(base, token string) (*wireClient, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("wire client: %s is not http", base)
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	return &wireClient{addr: addr, host: u.Host, token: token}, nil
}

// requestTimeout bounds one request, as the net/http client's does.
const requestTimeout = 30 * time.Second

// Do has Client.Do's contract: body is sent as JSON (a []byte as it is),
// the envelope's data is decoded into out (nil: not decoded), and a non-2xx
// status is an *APIError.
func (c *wireClient) Do(ctx context.Context, method, path string, body, out any) (int, error) {
	var payload []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		payload = b
	default:
		var err error
		if payload, err = json.Marshal(b); err != nil {
			return 0, err
		}
	}
	status, raw, err := c.roundTrip(ctx, method, path, payload)
	if err != nil {
		c.close() // the connection's state is unknown: the next request opens a new one
		return status, err
	}
	if status >= 300 {
		var env struct {
			Error *struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		e := &APIError{Status: status}
		if json.Unmarshal(raw, &env) == nil && env.Error != nil {
			e.Code, e.Message = env.Error.Code, env.Error.Message
		}
		return status, e
	}
	if out != nil {
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(raw, &env); err != nil {
			return status, fmt.Errorf("HTTP %d: not an API envelope: %.200s", status, raw)
		}
		return status, json.Unmarshal(env.Data, out)
	}
	return status, nil
}

func (c *wireClient) roundTrip(ctx context.Context, method, path string, payload []byte) (int, []byte, error) {
	if c.conn == nil {
		d := net.Dialer{Timeout: requestTimeout}
		conn, err := d.DialContext(ctx, "tcp", c.addr)
		if err != nil {
			return 0, nil, err
		}
		c.conn, c.br = conn, bufio.NewReaderSize(conn, 8<<10)
	}
	deadline := time.Now().Add(requestTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if err := c.conn.SetDeadline(deadline); err != nil {
		return 0, nil, err
	}
	r := &c.req
	r.Reset()
	r.WriteString(method)
	r.WriteByte(' ')
	r.WriteString(path)
	r.WriteString(" HTTP/1.1\r\nHost: ")
	r.WriteString(c.host)
	if c.token != "" {
		r.WriteString("\r\nAuthorization: Bearer ")
		r.WriteString(c.token)
	}
	if payload != nil {
		r.WriteString("\r\nContent-Type: application/json\r\nContent-Length: ")
		r.WriteString(strconv.Itoa(len(payload)))
	}
	r.WriteString("\r\n\r\n")
	r.Write(payload)
	if _, err := c.conn.Write(r.Bytes()); err != nil {
		return 0, nil, err
	}
	return c.readResponse()
}

// readResponse reads a status line, the headers and a body of a stated
// length or in chunks.
func (c *wireClient) readResponse() (int, []byte, error) {
	line, err := c.br.ReadSlice('\n')
	if err != nil {
		return 0, nil, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, nil, fmt.Errorf("not an HTTP/1.x status line: %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, fmt.Errorf("status line %q: %w", line, err)
	}
	length, chunked, closing := -1, false, false
	for {
		h, err := c.br.ReadSlice('\n')
		if err != nil {
			return status, nil, err
		}
		h = bytes.TrimRight(h, "\r\n")
		if len(h) == 0 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return status, nil, fmt.Errorf("Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			if !bytes.EqualFold(value, []byte("chunked")) {
				return status, nil, fmt.Errorf("transfer coding %q", value)
			}
			chunked = true
		case bytes.EqualFold(name, []byte("Connection")):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	c.body = c.body[:0]
	switch {
	case chunked:
		for {
			sz, err := c.br.ReadSlice('\n')
			if err != nil {
				return status, nil, err
			}
			sz, _, _ = bytes.Cut(bytes.TrimRight(sz, "\r\n"), []byte(";"))
			n, err := strconv.ParseInt(string(sz), 16, 32)
			if err != nil {
				return status, nil, fmt.Errorf("chunk size %q", sz)
			}
			if n == 0 {
				if _, err := c.br.ReadSlice('\n'); err != nil { // no trailers expected
					return status, nil, err
				}
				break
			}
			if c.body, err = readN(c.br, c.body, int(n)); err != nil {
				return status, nil, err
			}
			if _, err := c.br.Discard(2); err != nil {
				return status, nil, err
			}
		}
	case length >= 0:
		if c.body, err = readN(c.br, c.body, length); err != nil {
			return status, nil, err
		}
	default:
		return status, nil, errors.New("an answer with neither a length nor chunks")
	}
	if closing {
		c.close()
	}
	return status, c.body, nil
}

func readN(r io.Reader, dst []byte, n int) ([]byte, error) {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	_, err := io.ReadFull(r, dst[start:])
	return dst, err
}

func (c *wireClient) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn, c.br = nil, nil
	}
}
