// Package aifake is a local OpenAI-compatible chat-completions server for
// tests and trials: it answers from the prompt alone (BUY when the candles'
// return is above 1%, SELL below -1% while holding, HOLD otherwise), after a
// configurable delay, and counts its calls. cmd/aifake serves it.
package aifake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is the fake; its zero value answers at once.
type Server struct {
	// Delay is how long each answer takes.
	Delay time.Duration
	// BlockAfter, when positive, makes every call after that many wait
	// until its request ends (a model that stops answering).
	BlockAfter int
	// Cost, when set, is reported as each answer's usage.cost.
	Cost *float64

	mu       sync.Mutex
	calls    int
	answered int
	// The usage it reported, summed over its answers.
	promptTokens, completionTokens int
	// The messages of the last request, by role.
	last map[string]string
}

// Last is the content of the last request's message of role (system,
// user): what the model was really sent.
func (s *Server) Last(role string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last[role]
}

var returnLine = regexp.MustCompile(`return (-?[0-9.]+)%`)

// Calls is how many requests arrived; Answered how many were answered.
func (s *Server) Calls() int    { s.mu.Lock(); defer s.mu.Unlock(); return s.calls }
func (s *Server) Answered() int { s.mu.Lock(); defer s.mu.Unlock(); return s.answered }

// Tokens is the usage the fake reported (prompt_tokens, completion_tokens),
// summed over every answer it gave.
func (s *Server) Tokens() (prompt, completion int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.promptTokens, s.completionTokens
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.calls++
	n := s.calls
	s.last = map[string]string{}
	for _, m := range req.Messages {
		s.last[m.Role] = m.Content
	}
	s.mu.Unlock()
	if s.BlockAfter > 0 && n > s.BlockAfter {
		<-r.Context().Done()
		return
	}
	if s.Delay > 0 {
		select {
		case <-time.After(s.Delay):
		case <-r.Context().Done():
			return
		}
	}
	prompt := req.Messages[len(req.Messages)-1].Content
	content := fmt.Sprintf(`{"decision":"%s","confidence":0.8,"reasoning":"the candles' return"}`, Decide(prompt))
	// Token counts as a real model reports them: the prompt's (about 4
	// characters a token) and the answer's.
	pt, ct := len(prompt)/4, len(content)/4
	usage := map[string]any{"prompt_tokens": pt, "completion_tokens": ct}
	if s.Cost != nil {
		usage["cost"] = *s.Cost
	}
	b, _ := json.Marshal(map[string]any{"model": "fake-model", "usage": usage,
		"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": content}}}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
	s.mu.Lock()
	s.answered++
	s.promptTokens += pt
	s.completionTokens += ct
	s.mu.Unlock()
}

// Decide is the fake's rule: the decision it gives a prompt.
func Decide(prompt string) string {
	if m := returnLine.FindStringSubmatch(prompt); m != nil {
		ret, _ := strconv.ParseFloat(m[1], 64)
		switch {
		case ret > 1:
			return "BUY"
		case ret < -1 && !strings.Contains(prompt, "nothing held"):
			return "SELL"
		}
	}
	return "HOLD"
}
