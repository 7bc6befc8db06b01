package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// benchFloor is "daawid bench floor", a target of bench serve: the
// static tree served from memory by the plainest net/http handler there
// is, with the header set daawid serve sends (§2.2), set the ordinary way.
// It is the floor of what any Go server built on net/http costs on the
// machine, measured in the same run as nginx and daawid serve, so the
// record can tell the cost of net/http from the cost of the registry.
func benchFloor(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("bench floor", flag.ContinueOnError)
	fset.SetOutput(stderr)
	root := fset.String("root", "", "the static tree")
	addr := fset.String("addr", "127.0.0.1:0", "address to serve on")
	base := fset.String("base-url", "", "the base URL of the Link header")
	if err := fset.Parse(args); err != nil || *root == "" {
		return 2
	}
	type doc struct {
		body             []byte
		etag, link, lang string
	}
	docs := map[string]*doc{}
	err := filepath.WalkDir(*root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(*root, p)
		path := "/" + filepath.ToSlash(rel)
		slug := path[1 : len(path)-len(filepath.Ext(path))]
		sum := sha256.Sum256(b)
		docs[path] = &doc{body: b, etag: `"` + hex.EncodeToString(sum[:12]) + `"`, lang: "de",
			link: "<" + *base + "/" + slug + `.md>; rel="alternate"; type="text/markdown", <` + *base + "/" + slug +
				`.json>; rel="alternate"; type="application/ld+json", <` + *base + "/" + slug + `>; rel="canonical"`}
		return nil
	})
	if err != nil {
		fmt.Fprintln(stderr, "bench floor:", err)
		return 1
	}
	modified := time.Now().UTC().Format(http.TimeFormat)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		var id [8]byte
		trace := strconv.AppendUint(id[:0], uint64(time.Now().UnixNano()), 16)
		hd := w.Header()
		hd.Set("X-Trace-Id", string(trace))
		hd.Set("ETag", d.etag)
		hd.Set("Last-Modified", modified)
		hd.Set("Content-Language", d.lang)
		hd.Set("Cache-Control", "public, max-age=300, stale-while-revalidate=86400")
		hd.Set("Access-Control-Allow-Origin", "*")
		hd.Set("Access-Control-Expose-Headers", "ETag, Last-Modified, Link, Content-Language, Retry-After, X-Trace-Id")
		hd.Set("Link", d.link)
		hd.Set("Content-Type", "text/markdown; charset=utf-8")
		hd.Set("Accept-Ranges", "bytes")
		hd.Set("Content-Length", strconv.Itoa(len(d.body)))
		w.Write(d.body)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "bench floor:", err)
		return 1
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	fmt.Fprintf(stdout, "serving %d documents on http://%s\n", len(docs), ln.Addr())
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(stderr, "bench floor:", err)
		return 1
	}
	return 0
}
