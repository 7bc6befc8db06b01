package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed 0.1/*.json
var publishedSchemas embed.FS

// PublishedSchema returns a checked-in JSON Schema by file name.
func PublishedSchema(name string) ([]byte, bool) {
	b, err := publishedSchemas.ReadFile("0.1/" + name)
	return b, err == nil
}

// Issue is one mistake in an entry, at a JSON pointer into it.
type Issue struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (i Issue) String() string {
	p := i.Path
	if p == "" {
		p = "/"
	}
	return p + ": " + i.Message
}

// Issues is every mistake found, sorted by path. It is an error.
type Issues []Issue

func (is Issues) Error() string {
	s := make([]string, len(is))
	for i, x := range is {
		s[i] = x.String()
	}
	return strings.Join(s, "\n")
}

func (is Issues) sorted() Issues {
	sort.SliceStable(is, func(a, b int) bool { return pathLess(is[a].Path, is[b].Path) })
	out := is[:0]
	for i, x := range is {
		if i > 0 && x == is[i-1] {
			continue
		}
		out = append(out, x)
	}
	return out
}

// pathLess orders JSON pointers segment by segment, numbers numerically.
func pathLess(a, b string) bool {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		ai, aerr := strconv.Atoi(as[i])
		bi, berr := strconv.Atoi(bs[i])
		if aerr == nil && berr == nil {
			return ai < bi
		}
		return as[i] < bs[i]
	}
	return len(as) < len(bs)
}

var entrySchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	raw, ok := PublishedSchema("entry.json")
	if !ok {
		return nil, fmt.Errorf("entry.json is not embedded")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(SchemaBaseURL+"entry.json", doc); err != nil {
		return nil, err
	}
	return c.Compile(SchemaBaseURL + "entry.json")
})

// MaxEntryBytes is the largest entry in the open format the registry
// reads (an owner revision, a file to validate or render): the contract's
// limits on every list and text keep a real entry far below it, so a
// bigger file is refused from its size before it is read.
const MaxEntryBytes = 8 << 20

// Validate checks an entry in the open format and returns it with every
// mistake, each named by its JSON pointer: first the shape, against the
// published entry.json (unknown fields, missing fields, formats, enums,
// lengths), then the rules across fields (Check). The entry is nil only when
// the bytes are not a JSON object.
func Validate(data []byte) (*Entry, Issues) {
	// A UTF-8 byte order mark, which some editors write, is not JSON but
	// says nothing either: it is dropped.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, Issues{{Path: "", Message: "is not valid JSON: " + err.Error()}}
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, Issues{{Path: "", Message: "must be a JSON object"}}
	}
	var issues Issues
	sch, err := entrySchema()
	if err != nil {
		panic("schemas: embedded entry.json does not compile: " + err.Error())
	}
	if err := sch.Validate(doc); err != nil {
		if ve, ok := err.(*jsonschema.ValidationError); ok {
			issues = append(issues, schemaIssues(ve)...)
		} else {
			issues = append(issues, Issue{Message: err.Error()})
		}
	}
	var e Entry
	if err := json.Unmarshal(data, &e); err != nil {
		// The shape is wrong somewhere the schema already named.
		if len(issues) == 0 {
			issues = append(issues, Issue{Message: "does not decode: " + err.Error()})
		}
		return nil, issues.sorted()
	}
	issues = append(issues, e.Check()...)
	return &e, issues.sorted()
}

// schemaIssues flattens a validation error into leaf issues with messages
// that say what is wrong in words.
func schemaIssues(ve *jsonschema.ValidationError) Issues {
	var out Issues
	var walk func(*jsonschema.ValidationError)
	walk = func(v *jsonschema.ValidationError) {
		if len(v.Causes) > 0 {
			for _, c := range v.Causes {
				walk(c)
			}
			return
		}
		path := ""
		for _, seg := range v.InstanceLocation {
			path += "/" + strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1")
		}
		switch k := v.ErrorKind.(type) {
		case *kind.Required:
			for _, m := range k.Missing {
				out = append(out, Issue{Path: path + "/" + m, Message: "is required"})
			}
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, Issue{Path: path + "/" + p, Message: "is not a field of this object (check the spelling)"})
			}
		case *kind.Pattern:
			msg := PatternMessage(k.Want)
			if msg == "" {
				msg = "does not have the expected form " + k.Want
			}
			out = append(out, Issue{Path: path, Message: msg})
		case *kind.Enum:
			want := make([]string, len(k.Want))
			for i, w := range k.Want {
				want[i] = fmt.Sprint(w)
			}
			out = append(out, Issue{Path: path, Message: fmt.Sprintf("%v is not one of %s", k.Got, strings.Join(want, ", "))})
		case *kind.MaxLength:
			out = append(out, Issue{Path: path, Message: fmt.Sprintf("is %d characters long; at most %d are allowed", k.Got, k.Want)})
		case *kind.MinLength:
			out = append(out, Issue{Path: path, Message: "must not be empty"})
		case *kind.Type:
			out = append(out, Issue{Path: path, Message: fmt.Sprintf("must be %s, not %s", strings.Join(k.Want, " or "), k.Got)})
		case *kind.MinItems:
			out = append(out, Issue{Path: path, Message: fmt.Sprintf("must have at least %d item(s)", k.Want)})
		case *kind.Const:
			out = append(out, Issue{Path: path, Message: fmt.Sprintf("must be %v", k.Want)})
		case *kind.Format:
			out = append(out, Issue{Path: path, Message: "is not a valid " + k.Want})
		case *kind.PropertyNames:
			out = append(out, Issue{Path: path + "/" + k.Property, Message: "is not a language tag like de or en-GB"})
		default:
			out = append(out, Issue{Path: path, Message: v.ErrorKind.LocalizedString(printer)})
		}
	}
	walk(ve)
	return out
}

var printer = message.NewPrinter(language.English)
