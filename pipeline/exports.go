package pipeline

import (
	"context"
	"path/filepath"

	"github.com/daawid/registry/export"
	"github.com/daawid/registry/export/publication"
	"github.com/daawid/registry/feeds"
	"github.com/daawid/registry/render"
	"github.com/daawid/registry/schemas"
	"github.com/daawid/registry/schemas/taxonomy"
)

// exports writes the full bulk exports, or carries the previous ones.
func (p *publisher) exports(ctx context.Context, dir string, src entrySource) error {
	out := filepath.Join(dir, publication.ExportsDir)
	if !p.cfg.Exports {
		if p.prevDir == "" {
			return nil
		}
		return publication.LinkTree(filepath.Join(p.prevDir, publication.ExportsDir), out)
	}
	if p.exporter != nil {
		// The entries were written as they were rendered (D133).
		return p.finishExports(dir, out, p.exporter)
	}
	x, err := export.New(out)
	if err != nil {
		return err
	}
	defer x.Abort()
	s := p.cfg.Site
	type viewed struct {
		entries map[string]*schemas.Entry
		part    []*EntryRow
		views   [][]schemas.EntryView
	}
	err = overlapped(ctx, src.live, func(part []*EntryRow) (viewed, error) {
		entries, err := p.st.Revisions(part)
		if err != nil {
			return viewed{}, err
		}
		// Each entry's view in every language it is published in, default
		// first: the per-language text maps of the exports (v2).
		views := make([][]schemas.EntryView, len(part))
		parallelFor(len(part), func(i int) {
			e := entries[part[i].EntryID]
			def := render.View(e, e.DefaultLanguage, s, nil)
			views[i] = []schemas.EntryView{def}
			for _, lang := range def.AvailableLanguages {
				if lang != e.DefaultLanguage {
					views[i] = append(views[i], render.View(e, lang, s, nil))
				}
			}
		})
		return viewed{entries, part, views}, nil
	}, func(v viewed) error {
		for i := range v.views {
			e := v.entries[v.part[i].EntryID]
			if err := x.Add(v.views[i], render.HTMLPageURL(s, e, e.DefaultLanguage), render.MarkdownURL(s, e, e.DefaultLanguage)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return p.finishExports(dir, out, x)
}

// finishExports writes the categories and the changes, closes the
// export's files and writes its manifest.
func (p *publisher) finishExports(dir, out string, x *export.Exporter) error {
	tax := taxonomy.Default()
	for _, c := range tax.Categories() {
		if err := x.AddCategory(export.CategoryRow{Code: c.Code, Sector: c.Sector, Label: tax.Label(c.Code, "en"), SchemaType: c.SchemaType,
			NACE: nonNilStrings(c.NACE), Terms: nonNilStrings(tax.Terms(c.Code)["en"])}); err != nil {
			return err
		}
	}
	files, counts, err := x.Close()
	if err != nil {
		return err
	}
	// The changes table is the change feed's segments, written again with
	// the export's column names (v2: changed_at).
	segs, err := publication.FeedSegments(filepath.Join(dir, feeds.Dir))
	if err != nil {
		return err
	}
	names := make([]string, len(segs))
	for i, sg := range segs {
		names[i] = sg.Name
	}
	changes, n, err := export.WriteChanges(filepath.Join(dir, feeds.Dir), out, names)
	if err != nil {
		return err
	}
	counts["changes"] = n
	files = append(files, changes...)
	return export.WriteManifest(out, export.Manifest{SchemaVersion: export.SchemaVersion, Publication: p.rep.ID, CreatedAt: schemas.FormatTime(p.now), Tables: counts, Files: files})
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
