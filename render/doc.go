// Package render derives every projection of an entry revision: the
// markdown document (§3), standalone and embedded JSON-LD (§4), the HTML
// page (§2.2) and the native JSON view (§6). Every function here is pure:
// the same (revision, language, site) always gives the same bytes, and no
// function reads the clock or does I/O (PRIV-06).
//
// Markdown and HTML are two serialisations of one intermediate document
// (sections of blocks of runs). Owner text only ever enters the document as
// text runs, which each serialiser escapes for its own syntax, so no text an
// owner typed can open a heading, a table row, an element or an attribute.
package render

// runKind says how a run is written out.
type runKind uint8

const (
	runText   runKind = iota // owner or registry text: escaped
	runFixed                 // a fixed English token of the contract: trusted, written as is
	runCode                  // an identifier in inline code (MD-32)
	runURL                   // a URL, shown as itself
	runStrong                // emphasised owner text (FAQ questions)
)

type run struct {
	kind runKind
	text string
	// ugc marks a URL an owner gave, for rel="ugc nofollow" (HTTP-25).
	ugc bool
}

type line []run

func fixed(s string) run     { return run{kind: runFixed, text: s} }
func text(s string) run      { return run{kind: runText, text: s} }
func code(s string) run      { return run{kind: runCode, text: s} }
func link(s string) run      { return run{kind: runURL, text: s} }
func ownerLink(s string) run { return run{kind: runURL, text: s, ugc: true} }
func strong(s string) run    { return run{kind: runStrong, text: s} }

// blockKind is the shape of a block.
type blockKind uint8

const (
	blockPara    blockKind = iota // lines joined by soft line breaks
	blockList                     // one item per line
	blockTable                    // header + rows of cells
	blockHeading                  // a level-3 heading
)

type block struct {
	kind  blockKind
	lines []line
	// table only
	header []string
	rows   [][]line
	// id is an anchor for the HTML serialiser (offerings, actions).
	id string
}

func para(ls ...line) block { return block{kind: blockPara, lines: ls} }
func list(ls ...line) block { return block{kind: blockList, lines: ls} }
func heading3(l line, id string) block {
	return block{kind: blockHeading, lines: []line{l}, id: id}
}
