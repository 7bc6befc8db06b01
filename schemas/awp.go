package schemas

// The AWP content structure's sections (AWP-27 to AWP-30): written by the
// publication from its entries table, rendered by render.AWPStructureOf.

// StructureSection is one section of the content structure.
type StructureSection struct {
	ID, Title string
	Tokens    int // of every page of the section
	Pages     int // every page of the section
	List      []StructurePage
}

// StructurePage is one listed page of a section.
type StructurePage struct {
	Title, Path string
	Tokens      int
	Tags        []string
}
