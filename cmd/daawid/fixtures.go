package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/fixtures/synth"
)

func runFixtures(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "train-dicts" {
		return trainDicts(args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "generate" {
		fmt.Fprintln(stderr, "usage: daawid fixtures generate --entries N --seed S --out DIR [--run-now RFC3339] [--claimed-share F] [--sites N]")
		fmt.Fprintln(stderr, "       daawid fixtures train-dicts --publication DIR --out DIR [--samples N] [--size BYTES] [--kinds K,…]")
		return 2
	}
	return synth.Main(args[1:], stdout, stderr)
}

// trainDicts trains the dictionaries of the kinds stored with one (the
// kinds never served, D120, and the legal notice and JSON view, D130)
// from a publication and writes them as the engine embeds them
// (export/publication/dicts/<kind>-<id>.zdict). A shipped dictionary is
// never replaced: a new one sits beside it with its own ID, and
// compressCurrent in export/publication names it to compress with.
func trainDicts(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fixtures train-dicts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pub := fs.String("publication", "", "a publication's folder (an output's current/)")
	out := fs.String("out", "", "where the dictionaries are written (export/publication/dicts)")
	samples := fs.Int("samples", 5000, "documents a kind's dictionary is trained on, spread over the publication")
	size := fs.Int("size", 32<<10, "a dictionary's largest size in bytes")
	kinds := fs.String("kinds", strings.Join(publication.DictionaryKinds(), ","), "the kinds to train, comma-separated")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pub == "" || *out == "" {
		fmt.Fprintln(stderr, "fixtures train-dicts: --publication and --out are required")
		return 2
	}
	for _, kind := range strings.Split(*kinds, ",") {
		d, err := publication.TrainDictionary(*pub, kind, *samples, *size)
		if err != nil {
			fmt.Fprintln(stderr, "fixtures train-dicts:", err)
			return 1
		}
		if err := os.WriteFile(filepath.Join(*out, d.Name), d.Data, 0o644); err != nil {
			fmt.Fprintln(stderr, "fixtures train-dicts:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s: dictionary %d, %d bytes\n", kind, d.ID, len(d.Data))
	}
	return 0
}
