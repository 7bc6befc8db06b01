package export

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// BBox is a GeoParquet 1.1 bounding-box covering column: a root-level group
// of four DOUBLE fields named and ordered xmin, ymin, xmax, ymax, null
// exactly where the geometry is null (the spec's "bbox covering encoding").
type BBox struct {
	XMin float64 `parquet:"xmin"`
	YMin float64 `parquet:"ymin"`
	XMax float64 `parquet:"xmax"`
	YMax float64 `parquet:"ymax"`
}

// pointWKB is a Point as little-endian ISO WKB: byte order 1, geometry type
// 1, then x (longitude) and y (latitude), 21 bytes. GeoParquet's default
// CRS, OGC:CRS84, is longitude first.
func pointWKB(lon, lat float64) []byte {
	b := make([]byte, 21)
	b[0] = 1
	binary.LittleEndian.PutUint32(b[1:], 1)
	binary.LittleEndian.PutUint64(b[5:], math.Float64bits(lon))
	binary.LittleEndian.PutUint64(b[13:], math.Float64bits(lat))
	return b
}

// PointOfWKB decodes a little-endian WKB Point (what pointWKB writes); the
// tests use it to read the geometry column back without a spatial library.
func PointOfWKB(b []byte) (lon, lat float64, err error) {
	if len(b) != 21 || b[0] != 1 || binary.LittleEndian.Uint32(b[1:]) != 1 {
		return 0, 0, fmt.Errorf("not a little-endian WKB point: % x", b)
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[5:])), math.Float64frombits(binary.LittleEndian.Uint64(b[13:])), nil
}

// extent is the bounding box of the points written to one file, for the
// file-level bbox of the `geo` metadata.
type extent struct {
	n    int
	bbox [4]float64
}

func (e *extent) add(b *BBox) {
	if b == nil {
		return
	}
	if e.n == 0 {
		e.bbox = [4]float64{b.XMin, b.YMin, b.XMax, b.YMax}
	} else {
		e.bbox = [4]float64{min(e.bbox[0], b.XMin), min(e.bbox[1], b.YMin), max(e.bbox[2], b.XMax), max(e.bbox[3], b.YMax)}
	}
	e.n++
}

// geoMetadata is the GeoParquet 1.1 `geo` key-value metadata of a table
// with points. The crs key is left out: per the spec an absent crs means
// OGC:CRS84 (longitude, latitude on WGS84), whereas null would mean
// "unknown". The file bbox is left out when no row of the file has a point.
func (e *extent) geoMetadata() string {
	col := map[string]any{
		"encoding":       "WKB",
		"geometry_types": []string{"Point"},
		"covering": map[string]any{"bbox": map[string][]string{
			"xmin": {"bbox", "xmin"}, "ymin": {"bbox", "ymin"}, "xmax": {"bbox", "xmax"}, "ymax": {"bbox", "ymax"},
		}},
	}
	if e.n > 0 {
		col["bbox"] = e.bbox[:]
	}
	b, _ := json.Marshal(map[string]any{"version": "1.1.0", "primary_column": "geometry", "columns": map[string]any{"geometry": col}})
	return string(b)
}

// parseCents reads a contract price ("12", "12.5", "12.50") as cents for a
// DECIMAL(14,2) column; an empty string is no price (nil).
func parseCents(s string) (*int64, error) {
	if s == "" {
		return nil, nil
	}
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || len(frac) > 2 || (dot && frac == "") || strings.ContainsAny(whole+frac, "+-") {
		return nil, fmt.Errorf("%q is not an amount with at most two decimals", s)
	}
	frac += strings.Repeat("0", 2-len(frac))
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%q is not an amount with at most two decimals", s)
	}
	// DECIMAL(14,2) holds the twelve digits before the point that the
	// contract's money pattern allows.
	if w >= 1e12 {
		return nil, fmt.Errorf("%q is over DECIMAL(14,2)'s 999999999999.99", s)
	}
	c := w*100 + f
	return &c, nil
}
