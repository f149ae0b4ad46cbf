package coinbasefake

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"kestrel/domain"
)

// userEvent is one order's state on the user channel.
type userEvent struct {
	product string
	order   WSUserOrder
}

// userEvents describes changed orders for the user channel as Coinbase
// does: cumulative_quantity in base, leaves_quantity in the currency the
// order was sized in; callers hold mu.
func (f *Fake) userEvents(os []*order) []userEvent {
	out := make([]userEvent, 0, len(os))
	for _, o := range os {
		limit, stop := "0", "0"
		if o.kind != "market" {
			limit = o.limit.String()
		}
		if o.kind == "stop_limit" {
			stop = o.stop.String()
		}
		out = append(out, userEvent{product: o.ProductID, order: WSUserOrder{AvgPrice: o.AverageFilledPrice, CancelReason: o.CancelMessage,
			ClientOrderID: o.ClientOrderID, CompletionPercentage: o.CompletionPercentage, ContractExpiryType: "UNKNOWN_CONTRACT_EXPIRY_TYPE",
			CumulativeQuantity: o.FilledSize, FilledValue: o.FilledValue, LeavesQuantity: o.leaves().String(), LimitPrice: limit,
			NumberOfFills: o.NumberOfFills, OrderID: o.OrderID, OrderSide: o.Side, OrderType: o.OrderType, OutstandingHold: o.OutstandingHold,
			PostOnly: "false", ProductID: o.ProductID, ProductType: "SPOT", RetailPortfolioID: "fake-portfolio", RiskManagedBy: "UNKNOWN_RISK_MANAGEMENT_TYPE",
			Status: o.Status, StopPrice: stop, TimeInForce: o.TimeInForce, TotalFees: o.TotalFees, TotalValueAfterFees: o.TotalValueAfterFees,
			TriggerStatus: o.TriggerStatus, CreationTime: o.CreatedTime, EndTime: "0001-01-01T00:00:00Z", StartTime: "0001-01-01T00:00:00Z"}})
	}
	return out
}

// userFeed is the WebSocket: the user channel (orders), heartbeats and the
// market's ticker. Each connection numbers its messages; a dropped message
// leaves a gap in sequence_num, as a lost one would at Coinbase.
type userFeed struct {
	f     *Fake
	mu    sync.Mutex
	conns map[*wsConn]bool
	drop  int              // messages to swallow (the sequence number still advances)
	mdrop int              // level2 messages to swallow, likewise
	swap  int              // messages to hold back until the one after them is sent
	stamp func() time.Time // message timestamps (nil: the fake's clock)
}

type wsConn struct {
	c    *websocket.Conn
	mu   sync.Mutex
	seq  int64
	subs map[string]map[string]bool // channel -> products ("" = all)
	out  chan []byte
	// ready lists channels whose subscription is complete (snapshot sent).
	ready map[string]bool
	held  []byte // a message held back to arrive after the next one
}

func newUserFeed(f *Fake) *userFeed { return &userFeed{f: f, conns: map[*wsConn]bool{}} }

// DropMessages makes the WebSocket lose the next n user-channel updates it
// would send (a negative n takes back that many pending drops).
func (f *Fake) DropMessages(n int) {
	f.user.mu.Lock()
	f.user.drop = max(f.user.drop+n, 0)
	f.user.mu.Unlock()
}

// SwapNext makes the next message sent on a connection arrive after the one
// that follows it: out of order, its sequence_num below one already seen.
func (f *Fake) SwapNext() {
	f.user.mu.Lock()
	f.user.swap++
	f.user.mu.Unlock()
}

// SetMarketClock stamps WebSocket messages with now instead of the fake's
// clock (nil: its clock again). A ticker's timestamp is its market time,
// so a test can close candles without waiting for them.
func (f *Fake) SetMarketClock(now func() time.Time) {
	f.user.mu.Lock()
	f.user.stamp = now
	f.user.mu.Unlock()
}

// DropConnections closes every WebSocket connection now.
func (f *Fake) DropConnections() {
	f.user.mu.Lock()
	for c := range f.user.conns {
		_ = c.c.CloseNow()
	}
	f.user.mu.Unlock()
}

// Subscribers counts open WebSocket connections subscribed to channel.
func (f *Fake) Subscribers(channel string) int {
	f.user.mu.Lock()
	defer f.user.mu.Unlock()
	n := 0
	for c := range f.user.conns {
		c.mu.Lock()
		if c.ready[channel] {
			n++
		}
		c.mu.Unlock()
	}
	return n
}

func (u *userFeed) serve(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	conn := &wsConn{c: c, subs: map[string]map[string]bool{}, ready: map[string]bool{}, out: make(chan []byte, 1024)}
	u.mu.Lock()
	u.conns[conn] = true
	u.mu.Unlock()
	defer func() {
		u.mu.Lock()
		delete(u.conns, conn)
		u.mu.Unlock()
		_ = c.CloseNow()
	}()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case b := <-conn.out:
				if c.Write(ctx, websocket.MessageText, b) != nil {
					cancel()
					return
				}
			}
		}
	}()
	for {
		_, raw, err := c.Read(ctx)
		if err != nil {
			return
		}
		var sub WSSubscribe
		if json.Unmarshal(raw, &sub) != nil || sub.Channel == "" {
			u.send(conn, "subscriptions", errorEvent("one channel per message is required"))
			continue
		}
		u.f.mu.Lock()
		u.f.requests = append(u.f.requests, Request{Route: "WS " + sub.Type + " " + sub.Channel, Keyed: sub.JWT != ""})
		u.f.mu.Unlock()
		if err := u.checkJWT(sub); err != nil {
			u.send(conn, "subscriptions", errorEvent("authentication failure: "+err.Error()))
			continue
		}
		conn.mu.Lock()
		set := conn.subs[sub.Channel]
		if set == nil {
			set = map[string]bool{}
			conn.subs[sub.Channel] = set
		}
		if len(sub.ProductIDs) == 0 {
			set[""] = true
		}
		for _, p := range sub.ProductIDs {
			set[p] = true
		}
		conn.mu.Unlock()
		if sub.Channel == "user" {
			u.send(conn, "user", u.snapshot())
		}
		if sub.Channel == "level2" {
			u.l2Snapshots(conn, sub.ProductIDs)
		}
		conn.mu.Lock()
		conn.ready[sub.Channel] = true
		conn.mu.Unlock()
	}
}

func errorEvent(msg string) []any { return []any{map[string]string{"type": "error", "message": msg}} }

// checkJWT verifies a subscription's token: signed by the key, no uri
// claim. Market channels need none; a token sent with one is still checked.
func (u *userFeed) checkJWT(s WSSubscribe) error {
	if s.JWT == "" && s.Channel != "user" {
		return nil // public market data
	}
	t, err := VerifyJWT(s.JWT, u.f.pub)
	if err != nil {
		return err
	}
	return checkClaims(t, u.f.KeyName, "", u.f.now().Unix())
}

func (u *userFeed) snapshot() []any {
	u.f.mu.Lock()
	var live []*order
	for _, o := range u.f.orders {
		if o.Status == "OPEN" {
			live = append(live, o)
		}
	}
	evs := u.f.userEvents(live)
	u.f.mu.Unlock()
	orders := make([]WSUserOrder, 0, len(evs))
	for _, e := range evs {
		orders = append(orders, e.order)
	}
	return []any{WSUserEvent{Type: "snapshot", Orders: orders}}
}

// send numbers and queues one message for a connection.
func (u *userFeed) send(c *wsConn, channel string, events []any) {
	u.deliver(c, channel, events, false)
}

// deliver numbers and queues one message; a droppable one (an order update)
// may be swallowed by a drop fault, its sequence number still used.
func (u *userFeed) deliver(c *wsConn, channel string, events []any, droppable bool) {
	c.mu.Lock()
	seq := c.seq
	c.seq++
	c.mu.Unlock()
	u.mu.Lock()
	dropped := droppable && u.drop > 0
	if dropped {
		u.drop--
	}
	stamp := u.f.now
	if u.stamp != nil {
		stamp = u.stamp
	}
	hold := !dropped && u.swap > 0
	if hold {
		u.swap--
	}
	u.mu.Unlock()
	if dropped {
		return
	}
	b, _ := json.Marshal(map[string]any{"channel": channel, "client_id": "", "timestamp": stamp().UTC().Format(time.RFC3339Nano),
		"sequence_num": seq, "events": events})
	c.mu.Lock()
	defer c.mu.Unlock()
	if hold {
		c.held = b
		return
	}
	for _, m := range [][]byte{b, c.held} {
		if m == nil {
			continue
		}
		select {
		case c.out <- m:
		default: // a client that cannot keep up loses messages, and sees the gap
		}
	}
	c.held = nil
}

// publish sends order changes to every user-channel subscriber.
func (u *userFeed) publish(evs []userEvent) {
	if len(evs) == 0 {
		return
	}
	u.mu.Lock()
	conns := make([]*wsConn, 0, len(u.conns))
	for c := range u.conns {
		conns = append(conns, c)
	}
	u.mu.Unlock()
	for _, c := range conns {
		c.mu.Lock()
		set := c.subs["user"]
		var orders []WSUserOrder
		for _, e := range evs {
			if set != nil && (set[""] || set[e.product]) {
				orders = append(orders, e.order)
			}
		}
		c.mu.Unlock()
		if len(orders) > 0 {
			u.deliver(c, "user", []any{WSUserEvent{Type: "update", Orders: orders}}, true)
		}
	}
}

// Heartbeat sends one heartbeats message to its subscribers (tests call it;
// Coinbase sends one a second).
func (f *Fake) Heartbeat(counter int) {
	u := f.user
	u.mu.Lock()
	conns := make([]*wsConn, 0, len(u.conns))
	for c := range u.conns {
		conns = append(conns, c)
	}
	u.mu.Unlock()
	for _, c := range conns {
		c.mu.Lock()
		on := c.subs["heartbeats"] != nil
		c.mu.Unlock()
		if on {
			u.send(c, "heartbeats", []any{map[string]string{"current_time": f.now().UTC().Format(time.RFC3339Nano), "heartbeat_counter": strconv.Itoa(counter)}})
		}
	}
}

// market sends a market-data event to the connections subscribed to
// channel for sym.
func (u *userFeed) market(sym, channel string, event any) {
	u.mu.Lock()
	conns := make([]*wsConn, 0, len(u.conns))
	for c := range u.conns {
		conns = append(conns, c)
	}
	u.mu.Unlock()
	for _, c := range conns {
		c.mu.Lock()
		set := c.subs[channel]
		on := set != nil && (set[""] || set[sym])
		c.mu.Unlock()
		if on {
			u.send(c, channel, []any{event})
		}
	}
}

// PublishCandle sends a live candle on the candles channel.
func (f *Fake) PublishCandle(sym string, c domain.Candle) {
	f.user.market(sym, "candles", WSCandlesEvent{Type: "update", Candles: []WSCandle{{Start: strconv.FormatInt(c.Time.Unix(), 10),
		High: c.High.String(), Low: c.Low.String(), Open: c.Open.String(), Close: c.Close.String(), Volume: c.Volume.String(), ProductID: sym}}})
}
