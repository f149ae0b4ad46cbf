package httpapi

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"kestrel/domain"
	"kestrel/trading"
)

func (s *Server) tradingRoutes() {
	s.api("POST /api/trading/execute", signedIn.withToken(tokenTrade), s.execute)
	s.api("POST /api/trading/orders/limit", signedIn.withToken(tokenTrade), s.placeLimit)
	s.api("POST /api/trading/orders/stop-loss", signedIn.withToken(tokenTrade), s.placeStopLoss)
	s.api("POST /api/trading/orders/trailing-stop", signedIn.withToken(tokenTrade), s.placeTrailingStop)
	s.api("PUT /api/trading/orders/{id}", signedIn.withToken(tokenTrade), s.modifyOrder)
	s.api("DELETE /api/trading/orders/{id}", signedIn.withToken(tokenTrade), s.cancelOrder)
	s.api("GET /api/trading/orders", signedIn.withToken(tokenRead), s.listOrders)
	s.api("GET /api/trading/positions", signedIn.withToken(tokenRead), s.listPositions)
	s.api("GET /api/trading/balances", signedIn.withToken(tokenRead), s.balances)
	s.api("GET /api/trading/history", signedIn.withToken(tokenRead), s.tradeHistory)
	s.api("GET /api/trading/performance", signedIn.withToken(tokenRead), s.performance)
	s.api("GET /api/trading/portfolio", signedIn.withToken(tokenRead), s.portfolio)
	s.api("GET /api/trading/portfolio/history", signedIn.withToken(tokenRead), s.portfolioHistory)
	s.api("POST /api/trading/stop", signedIn.withToken(tokenTrade), s.emergencyStop)
	s.api("POST /api/trading/resume", operatorOnly, s.resume)
}

// orderReply writes a placed or changed order and notes it for the audit log.
func orderReply(w http.ResponseWriter, r *http.Request, o domain.Order, err error, status int) {
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", actedDetail(userFrom(r.Context()).ID, o))
	writeJSON(w, status, envelope{Success: true, Data: map[string]any{"order": o, "order_id": o.ID, "status": o.Status}})
}

// actedDetail is an order's audit detail, naming the owner when the actor
// (an operator) changed someone else's order.
func actedDetail(actorID string, o domain.Order) string {
	if o.UserID != "" && o.UserID != actorID {
		return orderDetail(o) + "; order of user " + o.UserID
	}
	return orderDetail(o)
}

// orderDetail is an order's audit detail.
func orderDetail(o domain.Order) string {
	return string(o.Side) + " " + o.Quantity.String() + " " + o.Symbol + " " + string(o.Type) + " -> " + string(o.Status) + " (" + o.ID + ")"
}

// placeReply writes a placed order: 201 when new, 200 when a repeated
// client order id returned the first order.
func placeReply(w http.ResponseWriter, r *http.Request, o domain.Order, created bool, err error) {
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	orderReply(w, r, o, err, status)
}

func (s *Server) execute(w http.ResponseWriter, r *http.Request) {
	var in ExecuteRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.refuseStrategyName(in.Strategy); err != nil {
		fail(w, r, err)
		return
	}
	typ := domain.OrderType(strings.ToLower(strings.TrimSpace(in.OrderType)))
	if typ == "" {
		typ = domain.Market
	}
	if typ != domain.Market && typ != domain.Limit {
		fail(w, r, fieldErr("order_type", "Order type must be market or limit here; use /trading/orders/stop-loss for stop-loss orders"))
		return
	}
	req := orderRequest(userFrom(r.Context()).ID, in.ClientOrderID, in.Symbol, in.Action, typ, in.Quantity, in.Strategy)
	if typ == domain.Limit {
		req.Price = in.Price.ptr()
	}
	r = s.rideAudit(r, "", http.StatusCreated)
	o, created, err := s.d.Trading.Place(r.Context(), req)
	placeReply(w, r, o, created, renameField(err, "side", "action"))
}

func (s *Server) placeLimit(w http.ResponseWriter, r *http.Request) {
	var in LimitRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.refuseStrategyName(in.Strategy); err != nil {
		fail(w, r, err)
		return
	}
	req := orderRequest(userFrom(r.Context()).ID, in.ClientOrderID, in.Symbol, in.Side, domain.Limit, in.Quantity, in.Strategy)
	req.Price = in.Price.ptr()
	r = s.rideAudit(r, "", http.StatusCreated)
	o, created, err := s.d.Trading.Place(r.Context(), req)
	placeReply(w, r, o, created, err)
}

func (s *Server) placeStopLoss(w http.ResponseWriter, r *http.Request) {
	var in StopLossRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.refuseStrategyName(in.Strategy); err != nil {
		fail(w, r, err)
		return
	}
	req := orderRequest(userFrom(r.Context()).ID, in.ClientOrderID, in.Symbol, in.Side, domain.StopLoss, in.Quantity, in.Strategy)
	req.StopPrice = in.StopPrice.ptr()
	r = s.rideAudit(r, "", http.StatusCreated)
	o, created, err := s.d.Trading.Place(r.Context(), req)
	placeReply(w, r, o, created, err)
}

func (s *Server) placeTrailingStop(w http.ResponseWriter, r *http.Request) {
	var in TrailingStopRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	if err := s.refuseStrategyName(in.Strategy); err != nil {
		fail(w, r, err)
		return
	}
	req := orderRequest(userFrom(r.Context()).ID, in.ClientOrderID, in.Symbol, in.Side, domain.TrailingStop, in.Quantity, in.Strategy)
	req.Trail = &domain.Trail{Percent: in.TrailPercent.ptr(), Amount: in.TrailAmount.ptr(), Activation: in.ActivationPrice.ptr()}
	r = s.rideAudit(r, "", http.StatusCreated)
	o, created, err := s.d.Trading.Place(r.Context(), req)
	placeReply(w, r, o, created, err)
}

func (s *Server) modifyOrder(w http.ResponseWriter, r *http.Request) {
	var in ModifyRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	var f []string
	if in.Quantity.Set && !in.Quantity.dec().IsPositive() {
		f = append(f, "quantity", "Valid quantity is required")
	}
	if in.Price.Set && !in.Price.dec().IsPositive() {
		f = append(f, "price", "Valid price is required for limit orders")
	}
	if in.StopPrice.Set && !in.StopPrice.dec().IsPositive() {
		f = append(f, "stop_price", "Valid stop price is required for stop orders")
	}
	if in.Price.Set && in.StopPrice.Set {
		f = append(f, "stop_price", "Send price or stop_price, not both")
	}
	if len(f) > 0 {
		fail(w, r, fieldErr(f[0], f[1]))
		return
	}
	r = s.rideAudit(r, r.PathValue("id"), http.StatusOK)
	by := trading.ActorOf(userFrom(r.Context()))
	var o domain.Order
	var err error
	if in.StopPrice.Set {
		o, err = s.d.Trading.ModifyStopAs(r.Context(), by, r.PathValue("id"), in.Quantity.ptr(), in.StopPrice.ptr())
	} else {
		o, err = s.d.Trading.ModifyAs(r.Context(), by, r.PathValue("id"), in.Quantity.ptr(), in.Price.ptr())
		// A stop's price sent as price: its errors name the field sent.
		err = renameField(err, "stop_price", "price")
	}
	orderReply(w, r, o, err, http.StatusOK)
}

func (s *Server) cancelOrder(w http.ResponseWriter, r *http.Request) {
	r = s.rideAudit(r, r.PathValue("id"), http.StatusOK)
	o, err := s.d.Trading.CancelAs(r.Context(), trading.ActorOf(userFrom(r.Context())), r.PathValue("id"))
	orderReply(w, r, o, err, http.StatusOK)
}

// balance is one currency's funds as GET /trading/balances reports them.
type balance struct {
	Asset     string          `json:"asset"`
	Available decimal.Decimal `json:"available"`
	Hold      decimal.Decimal `json:"hold"`
	Total     decimal.Decimal `json:"total"`
}

func (s *Server) balances(w http.ResponseWriter, r *http.Request) {
	bals, err := s.d.Trading.Balances(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	out := make([]balance, 0, len(bals))
	for _, b := range bals {
		out = append(out, balance{Asset: b.Currency, Available: b.Available, Hold: b.Hold, Total: b.Total()})
	}
	res := map[string]any{"balances": out}
	if taker, maker, known := s.d.Trading.Fees(); known {
		res["fees"] = feeRates{Taker: taker, Maker: maker}
	}
	ok(w, res)
}

// feeRates are the exchange's fee rates, so a form can estimate an order's
// fee with the rate the fill will pay.
type feeRates struct {
	Taker decimal.Decimal `json:"taker_rate"`
	Maker decimal.Decimal `json:"maker_rate"`
}

// renameField reports a gateway field under the name the request used.
func renameField(err error, from, to string) error {
	var e *domain.Error
	if !errors.As(err, &e) || e.Fields == nil {
		return err
	}
	if m, ok := e.Fields[from]; ok {
		fields := map[string]string{}
		for k, v := range e.Fields {
			fields[k] = v
		}
		delete(fields, from)
		fields[to] = m
		return &domain.Error{Code: e.Code, Message: e.Message, Fields: fields}
	}
	return err
}

func (s *Server) listOrders(w http.ResponseWriter, r *http.Request) {
	limit, err := intQuery(r, "limit", 100, 1, 1000)
	if err != nil {
		fail(w, r, err)
		return
	}
	orders, err := s.d.Trading.Orders(r.Context(), r.URL.Query().Get("status_filter"), limit)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"orders": orders, "count": len(orders)})
}

func (s *Server) listPositions(w http.ResponseWriter, r *http.Request) {
	ps, err := s.d.Trading.Positions(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"positions": ps, "count": len(ps)})
}

func (s *Server) tradeHistory(w http.ResponseWriter, r *http.Request) {
	limit, err := intQuery(r, "limit", 100, 1, 1000)
	if err != nil {
		fail(w, r, err)
		return
	}
	offset, err := intQuery(r, "offset", 0, 0, 1_000_000)
	if err != nil {
		fail(w, r, err)
		return
	}
	trades, total, err := s.d.Trading.History(r.Context(), r.URL.Query().Get("symbol"), limit, offset)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"trades": trades, "total": total, "limit": limit, "offset": offset})
}

func (s *Server) performance(w http.ResponseWriter, r *http.Request) {
	p, err := s.d.Trading.Performance(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, p)
}

func (s *Server) portfolio(w http.ResponseWriter, r *http.Request) {
	p, err := s.d.Trading.Portfolio(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, p)
}

func (s *Server) portfolioHistory(w http.ResponseWriter, r *http.Request) {
	limit, err := intQuery(r, "limit", 1000, 1, 10000)
	if err != nil {
		fail(w, r, err)
		return
	}
	start, err := timeQuery(r, "start")
	if err != nil {
		fail(w, r, err)
		return
	}
	end, err := timeQuery(r, "end")
	if err != nil {
		fail(w, r, err)
		return
	}
	if end.IsZero() {
		end = s.d.Clock.Now().Add(time.Second)
	}
	pts, err := s.d.Portfolio.PortfolioPoints(r.Context(), start, end, limit)
	if err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"points": pts})
}

func (s *Server) emergencyStop(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	cancelled, err := s.d.Trading.Stop(r.Context(), u.Email, "")
	if err != nil && cancelled == nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", "emergency stop; cancelled "+itoa(len(cancelled))+" order(s)")
	resp := map[string]any{"trading_halted": true, "cancelled_orders": len(cancelled), "halt": s.d.Trading.Halt()}
	if err != nil {
		resp["warning"] = err.Error()
	}
	ok(w, resp)
}

func (s *Server) resume(w http.ResponseWriter, r *http.Request) {
	if err := s.d.Trading.Resume(r.Context(), userFrom(r.Context()).Email); err != nil {
		fail(w, r, err)
		return
	}
	ok(w, map[string]any{"trading_halted": false})
}

func itoa(n int) string { return strconv.Itoa(n) }
