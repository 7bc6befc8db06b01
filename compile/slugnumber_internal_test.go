package compile

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// linearFirstFree is firstFree as it was before D135, counting from 2
// every time: the set's remembered starts are forgotten before each call.
func linearFirstFree(ids *Identities) func(base, withTown string) string {
	return func(base, withTown string) string {
		clear(ids.slugs.next)
		return ids.firstFree(base, withTown)
	}
}

// TestFirstFree_RememberedStartGivesTheSameSlugs checks D135: with the
// number each numbered slug got remembered, every slug given is the one
// counting from 2 gives, over many companies of few names (long names,
// whose stems shorten as the numbers grow past 9 and 99, among them),
// given in several batches that share one slug set (as key ranges do),
// with renames and slugs added from outside (the index of other ranges)
// between them.
func TestFirstFree_RememberedStartGivesTheSameSlugs(t *testing.T) {
	long := strings.Repeat("Sehr Lange Firmenbezeichnung ", 3)
	names := []string{"Müller GmbH", "Bäckerei Schmidt", long, "Claim", "AB", "Acme Ltd"}
	towns := []string{"", "Berlin", "Köln", "London"}
	rng := rand.New(rand.NewPCG(7, 35))
	now := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	fast, slow := NewSlugSet(0), NewSlugSet(0)
	k := 0
	for batch := range 12 {
		var news []NewCompany
		for range 250 {
			k++
			news = append(news, NewCompany{Key: fmt.Sprintf("k%06d", k), Name: names[rng.IntN(len(names))], Locality: towns[rng.IntN(len(towns))]})
		}
		a, b := NewIdentitiesWith(fast, 0), NewIdentitiesWith(slow, 0)
		byKey := map[string]NewCompany{}
		for _, c := range news {
			byKey[c.Key] = c
		}
		// The reference gives the same companies, in the same key order,
		// their slugs counting from 2 each time.
		for i, id := range a.AssignNew(news, now) {
			c := byKey[id.Key]
			want := linearFirstFree(b)(slugTries(c.Name, c.Locality))
			b.Add(&Identity{Key: c.Key, EntryID: id.EntryID, Slug: want})
			if id.Slug != want {
				t.Fatalf("batch %d, company %d (%q, %q): slug %q, counting from 2 gives %q", batch, i, c.Name, c.Locality, id.Slug, want)
			}
		}
		// Between batches: a rename, and slugs of other ranges (numbered
		// ones below and above the numbers given so far).
		id := a.All()[rng.IntN(a.Len())]
		name := names[rng.IntN(len(names))] + " Neu"
		want := linearFirstFree(b)(slugTries(name, "Berlin"))
		if a.Rename(id, name, "Berlin") {
			b.AddSlug(want)
			if id.Slug != want {
				t.Fatalf("batch %d: renamed to %q, counting from 2 gives %q", batch, id.Slug, want)
			}
		}
		for _, s := range []string{"mueller-gmbh-" + strconv.Itoa(rng.IntN(200)+2), "acme-ltd-london-" + strconv.Itoa(rng.IntN(200)+2)} {
			a.AddSlug(s)
			b.AddSlug(s)
		}
	}
	if len(fast.next) == 0 {
		t.Fatal("no numbered slug's start was remembered: the test gave no numbered slugs")
	}
	// The numbers grew far past 99 for the commonest names, so the long
	// name's stem was shortened on the way.
	if !fast.Has(strings.TrimRight(trimSlug(Slugify(long))[:59], "-") + "-100") {
		t.Errorf("the long name never reached -100: the test does not cover shortened stems")
	}
}
