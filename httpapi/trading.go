package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"kestrel/domain"
	"kestrel/trading"
)

func (s *Server) tradingRoutes() {
	s.api("POST /api/trading/execute", signedIn, s.execute)
	s.api("POST /api/trading/orders/limit", signedIn, s.placeLimit)
	s.api("POST /api/trading/orders/stop-loss", signedIn, s.placeStopLoss)
	s.api("PUT /api/trading/orders/{id}", signedIn, s.modifyOrder)
	s.api("DELETE /api/trading/orders/{id}", signedIn, s.cancelOrder)
	s.api("GET /api/trading/orders", signedIn, s.listOrders)
	s.api("GET /api/trading/positions", signedIn, s.listPositions)
	s.api("GET /api/trading/history", signedIn, s.tradeHistory)
	s.api("GET /api/trading/performance", signedIn, s.performance)
	s.api("GET /api/trading/portfolio", signedIn, s.portfolio)
	s.api("GET /api/trading/portfolio/history", signedIn, s.portfolioHistory)
	s.api("POST /api/trading/stop", signedIn, s.emergencyStop)
	s.api("POST /api/trading/resume", operatorOnly, s.resume)
}

// orderReply writes a placed or changed order and notes it for the audit log.
func orderReply(w http.ResponseWriter, r *http.Request, o domain.Order, err error, status int) {
	if err != nil {
		fail(w, r, err)
		return
	}
	noteAudit(r.Context(), "", "", string(o.Side)+" "+o.Quantity.String()+" "+o.Symbol+" "+string(o.Type)+" -> "+string(o.Status)+" ("+o.ID+")")
	writeJSON(w, status, envelope{Success: true, Data: map[string]any{"order": o, "order_id": o.ID, "status": o.Status}})
}

func (s *Server) execute(w http.ResponseWriter, r *http.Request) {
	var in trading.ExecuteRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	o, err := s.d.Trading.Execute(r.Context(), userFrom(r.Context()).ID, in)
	orderReply(w, r, o, err, http.StatusCreated)
}

func (s *Server) placeLimit(w http.ResponseWriter, r *http.Request) {
	var in trading.LimitRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	o, err := s.d.Trading.PlaceLimit(r.Context(), userFrom(r.Context()).ID, in)
	orderReply(w, r, o, err, http.StatusCreated)
}

func (s *Server) placeStopLoss(w http.ResponseWriter, r *http.Request) {
	var in trading.StopLossRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	o, err := s.d.Trading.PlaceStopLoss(r.Context(), userFrom(r.Context()).ID, in)
	orderReply(w, r, o, err, http.StatusCreated)
}

func (s *Server) modifyOrder(w http.ResponseWriter, r *http.Request) {
	var in trading.ModifyRequest
	if err := decode(r, &in); err != nil {
		fail(w, r, err)
		return
	}
	o, err := s.d.Trading.Modify(r.Context(), r.PathValue("id"), in)
	orderReply(w, r, o, err, http.StatusOK)
}

func (s *Server) cancelOrder(w http.ResponseWriter, r *http.Request) {
	o, err := s.d.Trading.Cancel(r.Context(), r.PathValue("id"))
	orderReply(w, r, o, err, http.StatusOK)
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
	p, err := s.d.Trading.Portfolio(r.Context(), s.d.RealizedPnL)
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
