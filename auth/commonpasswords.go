package auth

import (
	_ "embed"
	"strings"
	"sync"
)

// commonPasswordList is the 10,000 most common passwords, most common first,
// lower-case, one a line: the first 10,000 entries of the password list
// zxcvbn 4.4.2 ships (lib/frequency_lists.js, MIT licence, Dan Wheeler and
// Dropbox), which zxcvbn ranked by frequency from Mark Burnett's public
// corpus of 10 million leaked passwords (xato.net, 2015).
//
//go:embed common-passwords.txt
var commonPasswordList string

// commonPasswords is the list as a set, built on first use (a process that
// never checks a password pays nothing).
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, 10_000)
	for _, p := range strings.Split(commonPasswordList, "\n") {
		if p != "" {
			set[p] = struct{}{}
		}
	}
	return set
})

// isCommonPassword reports whether pw, ignoring case, is on the list.
func isCommonPassword(pw string) bool {
	_, ok := commonPasswords()[strings.ToLower(pw)]
	return ok
}
