package places

// The tables below are read-only: what follows a comma in a place
// ("Paris, Texas", "Wuppertal, Germany", "Paris, TX") may name a country
// or a region by a name GeoNames' admin1 table doesn't carry. Keys are
// folded (see Fold).

// countryNames maps a country's English name, its common short forms and
// a few native names to its ISO 3166-1 alpha-2 code. Every country is
// also known by its code itself ("us", "de"), which needs no table.
var countryNames = map[string]string{
	"afghanistan": "AF", "albania": "AL", "algeria": "DZ", "andorra": "AD",
	"angola": "AO", "argentina": "AR", "armenia": "AM", "australia": "AU",
	"austria": "AT", "osterreich": "AT", "azerbaijan": "AZ", "bahrain": "BH",
	"bangladesh": "BD", "belarus": "BY", "belgium": "BE", "belgique": "BE", "belgie": "BE",
	"bolivia": "BO", "bosnia and herzegovina": "BA", "bosnia": "BA", "brazil": "BR", "brasil": "BR",
	"bulgaria": "BG", "cambodia": "KH", "cameroon": "CM", "canada": "CA",
	"chile": "CL", "china": "CN", "colombia": "CO", "costa rica": "CR",
	"croatia": "HR", "hrvatska": "HR", "cuba": "CU", "cyprus": "CY",
	"czech republic": "CZ", "czechia": "CZ", "cesko": "CZ", "denmark": "DK", "danmark": "DK",
	"dominican republic": "DO", "ecuador": "EC", "egypt": "EG", "مصر": "EG",
	"estonia": "EE", "ethiopia": "ET", "finland": "FI", "suomi": "FI",
	"france": "FR", "georgia": "GE", "germany": "DE", "deutschland": "DE",
	"ghana": "GH", "greece": "GR", "guatemala": "GT", "honduras": "HN",
	"hungary": "HU", "magyarorszag": "HU", "iceland": "IS", "india": "IN",
	"indonesia": "ID", "iran": "IR", "iraq": "IQ", "العراق": "IQ", "ireland": "IE",
	"israel": "IL", "italy": "IT", "italia": "IT", "ivory coast": "CI", "cote d ivoire": "CI",
	"jamaica": "JM", "japan": "JP", "jordan": "JO", "الاردن": "JO", "kazakhstan": "KZ",
	"kenya": "KE", "kosovo": "XK", "kuwait": "KW", "الكويت": "KW", "latvia": "LV",
	"lebanon": "LB", "لبنان": "LB", "libya": "LY", "liechtenstein": "LI", "lithuania": "LT",
	"luxembourg": "LU", "luxemburg": "LU", "malaysia": "MY", "malta": "MT", "mexico": "MX",
	"moldova": "MD", "monaco": "MC", "mongolia": "MN", "montenegro": "ME",
	"morocco": "MA", "maroc": "MA", "المغرب": "MA", "mozambique": "MZ", "myanmar": "MM",
	"nepal": "NP", "netherlands": "NL", "the netherlands": "NL", "holland": "NL", "nederland": "NL",
	"new zealand": "NZ", "nicaragua": "NI", "nigeria": "NG", "north macedonia": "MK",
	"norway": "NO", "norge": "NO", "oman": "OM", "pakistan": "PK", "palestine": "PS",
	"panama": "PA", "paraguay": "PY", "peru": "PE", "philippines": "PH",
	"poland": "PL", "polska": "PL", "portugal": "PT", "qatar": "QA", "قطر": "QA",
	"romania": "RO", "russia": "RU", "russian federation": "RU", "россия": "RU",
	"saudi arabia": "SA", "السعودية": "SA", "senegal": "SN", "serbia": "RS", "srbija": "RS",
	"singapore": "SG", "slovakia": "SK", "slovensko": "SK", "slovenia": "SI", "slovenija": "SI",
	"south africa": "ZA", "south korea": "KR", "korea": "KR", "spain": "ES", "espana": "ES",
	"sri lanka": "LK", "sudan": "SD", "sweden": "SE", "sverige": "SE",
	"switzerland": "CH", "schweiz": "CH", "suisse": "CH", "svizzera": "CH",
	"syria": "SY", "سوريا": "SY", "taiwan": "TW", "tanzania": "TZ", "thailand": "TH",
	"tunisia": "TN", "tunisie": "TN", "تونس": "TN", "turkey": "TR", "turkiye": "TR",
	"uganda": "UG", "ukraine": "UA", "україна": "UA",
	"united arab emirates": "AE", "uae": "AE", "الامارات": "AE",
	"united kingdom": "GB", "uk": "GB", "great britain": "GB", "britain": "GB",
	"united states": "US", "united states of america": "US", "usa": "US", "america": "US",
	"uruguay": "UY", "uzbekistan": "UZ", "venezuela": "VE", "vietnam": "VN", "viet nam": "VN",
	"yemen": "YE", "اليمن": "YE", "zambia": "ZM", "zimbabwe": "ZW", "الجزائر": "DZ",
}

// regionNames maps region names and abbreviations that GeoNames' English
// admin1 names don't cover to admin1 keys: the US states by their postal
// abbreviations (GeoNames' US admin1 codes are the same letters, but an
// operator's admin1 file need not be), Canada's provinces and
// Australia's states by theirs, and the German Länder by their German
// names.
var regionNames = map[string]string{
	"al": "US.AL", "ak": "US.AK", "az": "US.AZ", "ar": "US.AR", "ca": "US.CA",
	"co": "US.CO", "ct": "US.CT", "de": "US.DE", "dc": "US.DC", "fl": "US.FL",
	"ga": "US.GA", "hi": "US.HI", "id": "US.ID", "il": "US.IL", "in": "US.IN",
	"ia": "US.IA", "ks": "US.KS", "ky": "US.KY", "la": "US.LA", "me": "US.ME",
	"md": "US.MD", "ma": "US.MA", "mi": "US.MI", "mn": "US.MN", "ms": "US.MS",
	"mo": "US.MO", "mt": "US.MT", "ne": "US.NE", "nv": "US.NV", "nh": "US.NH",
	"nj": "US.NJ", "nm": "US.NM", "ny": "US.NY", "nc": "US.NC", "nd": "US.ND",
	"oh": "US.OH", "ok": "US.OK", "or": "US.OR", "pa": "US.PA", "ri": "US.RI",
	"sc": "US.SC", "sd": "US.SD", "tn": "US.TN", "tx": "US.TX", "ut": "US.UT",
	"vt": "US.VT", "va": "US.VA", "wa": "US.WA", "wv": "US.WV", "wi": "US.WI",
	"wy": "US.WY",
	// Canada (GeoNames codes its provinces by number).
	"ab": "CA.01", "bc": "CA.02", "mb": "CA.03", "nb": "CA.04", "nl": "CA.05",
	"ns": "CA.07", "on": "CA.08", "pe": "CA.09", "qc": "CA.10", "sk": "CA.11",
	"yt": "CA.12", "nt": "CA.13", "nu": "CA.14", "quebec": "CA.10",
	// Australia.
	"act": "AU.01", "nsw": "AU.02", "qld": "AU.04", "tas": "AU.06", "vic": "AU.07",
	// Germany: the Länder as Germans write them.
	"baden wurttemberg": "DE.01", "bw": "DE.01", "bayern": "DE.02", "by": "DE.02",
	"hessen": "DE.05", "niedersachsen": "DE.06", "nordrhein westfalen": "DE.07",
	"nrw": "DE.07", "rhineland palatinate": "DE.08", "rlp": "DE.08",
	"mecklenburg western pomerania": "DE.12", "sachsen": "DE.13",
	"sachsen anhalt": "DE.14", "thuringen": "DE.15", "berlin": "DE.16",
	// Austria and Switzerland, as their people write them.
	"wien": "AT.09", "tirol": "AT.07", "steiermark": "AT.06", "karnten": "AT.02",
	"niederosterreich": "AT.03", "oberosterreich": "AT.04",
	"zurich": "CH.ZH", "bern": "CH.BE", "geneve": "CH.GE", "genf": "CH.GE",
}

// featureRank orders GeoNames feature codes of populated places for ties in
// population: a capital before a seat before a town before a section of
// one.
func featureRank(code string) uint8 {
	switch code {
	case "PPLC":
		return 9
	case "PPLA":
		return 8
	case "PPLA2":
		return 7
	case "PPLA3":
		return 6
	case "PPLA4", "PPLA5":
		return 5
	case "PPLG":
		return 4
	case "PPL", "PPLS", "PPLL", "PPLF", "STLMT", "PPLR":
		return 3
	case "PPLX":
		return 2
	default: // PPLH, PPLQ, PPLW, PPLCH: historical, abandoned, destroyed
		return 1
	}
}
