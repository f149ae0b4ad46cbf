package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// DefaultTelegramURL is the Bot API's base URL; tests and relays set
// another (Options.TelegramURL, KESTREL_TELEGRAM_API_URL).
const DefaultTelegramURL = "https://api.telegram.org"

var (
	// botToken is the form BotFather hands out: the bot's id, a colon, a secret.
	botToken = regexp.MustCompile(`^[0-9]{3,20}:[A-Za-z0-9_-]{30,80}$`)
	// chatID is a numeric chat id (negative for groups) or @channelusername.
	chatID = regexp.MustCompile(`^(-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$`)
)

// ValidBotToken reports whether s has the form of a Telegram bot token.
func ValidBotToken(s string) bool { return botToken.MatchString(s) }

// ValidChatID reports whether s is a Telegram chat id or @channel name.
func ValidChatID(s string) bool { return chatID.MatchString(s) }

// retryAfter is a refusal that names when to try again: Telegram's 429
// with parameters.retry_after. The next attempt is not made before it.
type retryAfter struct {
	error
	wait time.Duration
}

// telegramAnswer is the Bot API's reply envelope.
type telegramAnswer struct {
	OK          bool   `json:"ok"`
	ErrorCode   int    `json:"error_code"`
	Description string `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

// sendTelegram posts text to chat through bot token's sendMessage. A 429
// is a retryAfter; a refusal no retry mends (a wrong token, a chat that
// does not exist or blocked the bot) is permanent; others are retried.
func sendTelegram(ctx context.Context, client *http.Client, base, token, chat, text string) error {
	base = strings.TrimRight(base, "/")
	if u, err := url.Parse(base); err != nil || (u.Scheme != "https" && !(u.Scheme == "http" && loopbackHost(u.Hostname()))) {
		return permanent{fmt.Errorf("the Telegram API URL %q is not https:// (or http:// to loopback)", base)}
	}
	body, err := json.Marshal(map[string]any{"chat_id": chat, "text": text, "disable_web_page_preview": true})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/bot"+token+"/sendMessage", bytes.NewReader(body))
	if err != nil {
		return permanent{errors.New("the Telegram API URL is not usable")}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		// The URL holds the token: say what failed without it.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("not delivered to Telegram: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	var a telegramAnswer
	_ = json.Unmarshal(raw, &a)
	if resp.StatusCode == http.StatusOK && a.OK {
		return nil
	}
	msg := fmt.Sprintf("Telegram answered HTTP %d", resp.StatusCode)
	if a.Description != "" {
		msg += ": " + a.Description
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		wait := time.Duration(a.Parameters.RetryAfter) * time.Second
		return retryAfter{errors.New(msg), max(wait, time.Second)}
	case resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnauthorized ||
		resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusNotFound:
		return permanent{errors.New(msg)}
	}
	return errors.New(msg)
}
