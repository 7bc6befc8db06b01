package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

func runRender(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	names := make([]string, len(render.Formats))
	for i, f := range render.Formats {
		names[i] = f.Name
	}
	format := fs.String("format", "md", "projection: "+strings.Join(names, ", "))
	lang := fs.String("lang", "", "language of the document (default: the entry's default language)")
	sections := fs.String("sections", "", "comma-separated sections to keep (md and view): "+sectionList())
	siteURL := fs.String("site-url", render.DefaultBaseURL, "base URL of the registry; API and MCP hosts are derived from it")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: daawid render [flags] FILE")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	f, ok := render.FormatByName(*format)
	if !ok || !f.Public {
		fmt.Fprintf(stderr, "daawid render: unknown format %q (one of %s)\n", *format, strings.Join(names, ", "))
		return 2
	}
	site, err := render.NewSite(*siteURL, taxonomy.Default())
	if err != nil {
		fmt.Fprintf(stderr, "daawid render: %v\n", err)
		return 2
	}
	var keys []schemas.SectionKey
	if *sections != "" {
		for _, s := range strings.Split(*sections, ",") {
			k := schemas.SectionKey(strings.TrimSpace(s))
			if !schemas.Known(k) {
				fmt.Fprintf(stderr, "daawid render: --sections: %q is not a section (one of %s)\n", k, sectionList())
				return 2
			}
			keys = append(keys, k)
		}
	}
	path := fs.Arg(0)
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "daawid render: %v\n", err)
		return 1
	}
	e, issues := schemas.Validate(data)
	if len(issues) > 0 {
		printIssues(stderr, path, issues)
		return 1
	}
	l := *lang
	if l == "" {
		l = e.DefaultLanguage
	}
	out := f.Render(e, l, site, keys)
	if out == nil {
		fmt.Fprintf(stderr, "daawid render: %s: the entry has no %s projection\n", path, f.Name)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		return 1
	}
	return 0
}

func sectionList() string {
	s := make([]string, len(schemas.SectionKeys))
	for i, k := range schemas.SectionKeys {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}

func printIssues(w io.Writer, path string, issues schemas.Issues) {
	for _, i := range issues {
		fmt.Fprintf(w, "%s: %s\n", path, i)
	}
}
