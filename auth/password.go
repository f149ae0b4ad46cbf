// Package auth owns accounts: password hashing, bearer-token sessions, roles,
// first-operator bootstrap, registration policy and login rate limiting.
package auth

import (
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// bcryptCost is bcrypt's cost; 12 keeps a login near a quarter second on a
// small server, which is the point: guessing stays expensive.
var bcryptCost = 12

// HashPassword returns a bcrypt hash of pw.
func HashPassword(pw string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), bcryptCost)
	return string(h), err
}

// CheckPassword reports whether pw matches hash.
func CheckPassword(hash, pw string) bool {
	err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw))
	return err == nil
}

// dummyHash is compared against when the email is unknown, so that a login
// for a missing account costs the same time as one for an existing account.
// It is made on first use, not at start: a quarter second every process
// (kestrel version, kestrel backtest) would otherwise pay.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("kestrel-timing-equaliser"), bcryptCost)
	return h
})
