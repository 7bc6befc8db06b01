package publication

import (
	"embed"
	"encoding/binary"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/valyala/gozstd"
)

// The dictionaries of the documents that are never served (D120). An
// entry's card, search record and public revision are small JSON
// documents with the same keys and many of the same values: compressed
// each on its own, a third to a half of their bytes is what every one of
// them repeats. Compressed with a dictionary of those, they take 40 % of
// the bytes (docs/performance.md). They are stored so because no client
// ever receives them as stored; the served documents stay plain zstd,
// which any decoder reads (issue 18), but for two kinds, stored so and
// served decoded (D130): an entry's legal notice, a page of boilerplate
// around the register line that is read rarely and takes a third of its
// bytes with a dictionary, and its JSON view (the REST mirror's
// /v1/entries/{id}), whose keys every view repeats and which takes half.
//
// A dictionary is part of the engine: dicts/<kind>-<id>.zdict, trained by
// `daawid fixtures train-dicts` and never changed once shipped (the
// frames of packs written with it name it by its ID). A new one takes a
// new ID, and the old ones stay here for the packs that use them; the one
// compressCurrent names compresses (the IDs, taken from the content, say
// nothing of which is newer).

//go:embed dicts
var dictFiles embed.FS

// compressCurrent is the dictionary each kind is compressed with, by file
// name; every other dictionary only decodes.
var compressCurrent = map[string]string{
	"card":       "card-2104281068.zdict",
	"entry":      "entry-172418808.zdict",
	"search":     "search-657066433.zdict",
	"legal-html": "legal-html-1061284179.zdict",
	"view":       "view-1334001872.zdict",
}

// Dictionary is one of the engine's zstd dictionaries.
type Dictionary struct {
	Kind string // the document kind it compresses
	ID   uint32 // its Dictionary_ID, named by every frame made with it
	Name string // its file under dicts/
	Data []byte // the dictionary (RFC 8878 §5 format)
}

// Dictionaries are the engine's dictionaries, by kind, then ID.
func Dictionaries() []Dictionary { return dictionaries }

var dictionaries = loadDictionaries()

func loadDictionaries() []Dictionary {
	entries, err := dictFiles.ReadDir("dicts")
	if err != nil {
		panic("publication: " + err.Error())
	}
	var out []Dictionary
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".zdict") {
			continue
		}
		data, err := dictFiles.ReadFile(path.Join("dicts", name))
		if err != nil {
			panic("publication: " + err.Error())
		}
		// The ID is after the last hyphen: a kind's name may hold one
		// (legal-html).
		base := strings.TrimSuffix(name, ".zdict")
		cut := strings.LastIndexByte(base, '-')
		kind, ok := base[:max(cut, 0)], cut > 0
		// RFC 8878 §5: the magic number, then the Dictionary_ID.
		if !ok || len(data) < 8 || binary.LittleEndian.Uint32(data) != 0xEC30A437 {
			panic(fmt.Sprintf("publication: dicts/%s is not a zstd dictionary named <kind>-<id>.zdict", name))
		}
		d := Dictionary{Kind: kind, ID: binary.LittleEndian.Uint32(data[4:]), Name: name, Data: data}
		if want := fmt.Sprintf("%s-%d.zdict", kind, d.ID); name != want {
			panic(fmt.Sprintf("publication: dicts/%s holds dictionary %d: name it %s", name, d.ID, want))
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].ID < out[j].ID
	})
	return out
}

func dictionaryBytes() [][]byte {
	var out [][]byte
	for _, d := range dictionaries {
		out = append(out, d.Data)
	}
	return out
}

// preparedDicts are each kind's current dictionary, prepared for libzstd
// at zstdDictLevel (D132).
var preparedDicts = func() map[string]*gozstd.CDict {
	out := map[string]*gozstd.CDict{}
	for _, d := range dictionaries {
		if compressCurrent[d.Kind] != d.Name {
			continue
		}
		cd, err := gozstd.NewCDictLevel(d.Data, zstdDictLevel)
		if err != nil {
			panic("publication: dicts/" + d.Name + ": " + err.Error())
		}
		out[d.Kind] = cd
	}
	for kind, name := range compressCurrent {
		if out[kind] == nil {
			panic("publication: the current dictionary of " + kind + ", dicts/" + name + ", is not there")
		}
	}
	return out
}()

// DictionaryKinds are the kinds stored with a dictionary, sorted.
func DictionaryKinds() []string { return slices.Sorted(maps.Keys(compressCurrent)) }

// HasDictionary reports whether documents of kind are stored with a
// dictionary: the kinds never served, and the legal notice and the JSON
// view (D130), which a server decodes for every client.
func HasDictionary(kind string) bool { return preparedDicts[kind] != nil }

// EncodeDocOf is the bytes a pack stores for an entry's document of kind
// and their encoding: with the kind's dictionary when it has one
// (EncodingZstdDict), else as EncodeDoc. dst is reused.
func EncodeDocOf(kind string, dst, body []byte) ([]byte, string) {
	cd := preparedDicts[kind]
	if cd == nil {
		return EncodeDoc(dst, body)
	}
	return encodeWith(cd, EncodingZstdDict, dst, body)
}
