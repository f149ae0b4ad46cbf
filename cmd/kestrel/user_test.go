package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func runUser(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"user", "add"}, args...), strings.NewReader(stdin), &out, &errOut)
	return out.String(), err
}

// kestrel user add refuses a common password with the reason, and creates
// the account with a good one.
func TestUserAddRefusesCommonPassword(t *testing.T) {
	dir := t.TempDir()
	_, err := runUser(t, "iloveyou1\n", "--data-dir", dir, "--email", "ops@example.com", "--name", "Ops")
	if err == nil || !strings.Contains(err.Error(), "password: This password is one of the 10,000 most common") {
		t.Fatalf("common password: %v", err)
	}
	out, err := runUser(t, "kestrel-ops-pass\n", "--data-dir", dir, "--email", "ops@example.com", "--name", "Ops")
	if err != nil || !strings.Contains(out, "created operator ops@example.com") {
		t.Fatalf("good password: %q, %v", out, err)
	}
}
