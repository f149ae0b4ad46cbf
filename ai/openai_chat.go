package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model          string            `json:"model"`
	Messages       []chatMessage     `json:"messages"`
	Temperature    float64           `json:"temperature"`
	MaxTokens      int               `json:"max_tokens,omitempty"`
	ResponseFormat map[string]string `json:"response_format,omitempty"`
}

type chatResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int      `json:"prompt_tokens"`
		CompletionTokens int      `json:"completion_tokens"`
		Cost             *float64 `json:"cost"` // reported by some gateways
	} `json:"usage"`
}

// chat sends one chat completion. When the server answers 400 about
// response_format, it retries once without it and stops asking.
func (p *openAI) chat(ctx context.Context, q query) (completion, error) {
	ctx, cancel := context.WithTimeout(ctx, p.http.timeout)
	defer cancel()
	body := chatRequest{Model: p.ModelLabel(""), Temperature: q.Temperature, MaxTokens: q.MaxTokens,
		Messages: []chatMessage{{"system", q.System}, {"user", q.Prompt}}}
	if !p.noJSONMode.Load() {
		body.ResponseFormat = map[string]string{"type": "json_object"}
	}
	u := p.base.JoinPath("chat", "completions").String()
	rep, err := p.http.do(ctx, http.MethodPost, u, body, nil)
	if err != nil && body.ResponseFormat != nil && refusedJSONMode(rep) {
		p.noJSONMode.Store(true)
		body.ResponseFormat = nil
		rep, err = p.http.do(ctx, http.MethodPost, u, body, nil)
	}
	if err != nil {
		return completion{}, err
	}
	return readChat(rep.Body)
}

func refusedJSONMode(r reply) bool {
	return r.Status == http.StatusBadRequest && strings.Contains(strings.ToLower(string(r.Body)), "response_format")
}

func readChat(body []byte) (completion, error) {
	var res chatResponse
	if err := json.Unmarshal(body, &res); err != nil {
		return completion{}, fmt.Errorf("OpenAI-compatible endpoint: unreadable answer: %w", err)
	}
	c := completion{Model: res.Model, PromptTokens: res.Usage.PromptTokens,
		CompletionTokens: res.Usage.CompletionTokens, Cost: res.Usage.Cost}
	if len(res.Choices) == 0 {
		return c, fmt.Errorf("OpenAI-compatible endpoint: the answer has no choices")
	}
	c.Text = res.Choices[0].Message.Content
	return c, nil
}
