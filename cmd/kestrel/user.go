package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"kestrel/app"
	"kestrel/auth"
	"kestrel/domain"
)

// userCmd manages accounts without the server running: `kestrel user add`
// creates the first operator for a deployment.
func userCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "add" {
		return fmt.Errorf("usage: kestrel user add --email E --name N [--role trader|operator] [--password P]")
	}
	fs := flag.NewFlagSet("kestrel user add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := bindConfig(fs)
	var n auth.NewUser
	fs.StringVar(&n.Email, "email", "", "email address (required)")
	fs.StringVar(&n.Name, "name", "", "display name (required)")
	fs.StringVar(&n.Role, "role", "operator", "role: trader or operator")
	fs.StringVar(&n.Password, "password", "", "password; read from the first line of standard input when empty")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if n.Password == "" {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && line == "" {
			return fmt.Errorf("no password given: pass --password or write it on standard input")
		}
		n.Password = strings.TrimRight(line, "\r\n")
	}
	store, err := app.OpenStore(ctx, *cfg)
	if err != nil {
		return err
	}
	defer store.Close()
	u, err := auth.NewService(store, domain.SystemClock{}, cfg.SessionTTL).CreateUser(ctx, n)
	if err != nil {
		var fields []string
		if de, ok := err.(*domain.Error); ok {
			for f, m := range de.Fields {
				fields = append(fields, f+": "+m)
			}
		}
		if len(fields) > 0 {
			return fmt.Errorf("%s", strings.Join(fields, "; "))
		}
		return err
	}
	fmt.Fprintf(stdout, "created %s %s (%s)\n", u.Role, u.Email, u.ID)
	return nil
}
