package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/daawid/registry/query/keys"
)

// runKeys is "daawid keys create|revoke|list": buyer keys for the bulk
// exports and the change feed, stored hashed (D62).
func runKeys(args []string, stdout, stderr io.Writer) int {
	usage := func() int {
		fmt.Fprintln(stderr, "usage: daawid keys create --store FILE --name BUYER | revoke --store FILE KEY_ID | list --store FILE")
		return 2
	}
	if len(args) == 0 {
		return usage()
	}
	fs := flag.NewFlagSet("keys "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	store := fs.String("store", "", "the key store (JSON; only hashes are kept)")
	name := fs.String("name", "", "the buyer the key is for")
	if err := fs.Parse(args[1:]); err != nil || *store == "" {
		return usage()
	}
	now := time.Now().UTC()
	switch args[0] {
	case "create":
		secret, k, err := keys.CreateKey(*store, *name, now)
		if err != nil {
			fmt.Fprintf(stderr, "daawid keys: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\t%s\n%s\n", k.ID, k.Name, secret)
		fmt.Fprintln(stderr, "the key is shown once: only its SHA-256 is stored")
	case "revoke":
		if fs.NArg() != 1 {
			return usage()
		}
		if err := keys.RevokeKey(*store, fs.Arg(0), now); err != nil {
			fmt.Fprintf(stderr, "daawid keys: %v\n", err)
			return 1
		}
	case "list":
		all, err := keys.ReadKeys(*store)
		if err != nil {
			fmt.Fprintf(stderr, "daawid keys: %v\n", err)
			return 1
		}
		for _, k := range all {
			state := "live"
			if k.RevokedAt != "" {
				state = "revoked " + k.RevokedAt
			}
			fmt.Fprintf(stdout, "%s\t%s\tcreated %s\t%s\n", k.ID, k.Name, k.CreatedAt, state)
		}
	default:
		return usage()
	}
	return 0
}
