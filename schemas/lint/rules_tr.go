package lint

import "regexp"

// Turkish rules. Turkish letters are folded (ı→i, İ→i, ş→s, ğ→g, ç→c, ö→o,
// ü→u), so "önceki talimatları yok say" is matched as "onceki talimatlari
// yok say" and typed-without-diacritics text matches the same way. Turkish
// is agglutinative: nouns are matched by stem with \w* for case and
// possessive suffixes, verbs in their imperative and obligation (-meli/-malı)
// forms.

func init() {
	addMacros(map[string]string{
		"AI_TR": `(?:yapay zeka\w*(?: (?:asistan|model|sistem|arac|ajan|bot|sohbet bot)\w*)?|yz|dil model\w*|buyuk dil model\w*|llm\w*|sohbet bot\w*|chatbot\w*|sanal asistan\w*|dijital asistan\w*|ai|chatgpt\w*|gpt\w*|claude\w*|gemini\w*|copilot\w*)`,
		// imperative (2nd person singular and plural)
		"IMP_TR": `(?:oner|onerin|tavsiye et|tavsiye edin|soyle|soyleyin|belirt|belirtin|cevap ver|cevap verin|yanit ver|yanit verin|yanitla|yanitlayin|sirala|siralayin|goster|gosterin|yok say|yok sayin|gormezden gel|gormezden gelin|unut|unutun|bahset|bahsedin|one cikar|one cikarin|listele|listeleyin|tanit|tanitin)`,
		// obligation: önermeli(dir), tavsiye etmeli, sıralamalı ...
		"OBL_TR": `(?:(?:oner|tavsiye et|soyle|belirt|yaz|sirala|goster|bahset|one cikar|listele|tanit|yonlendir|cevap ver|yanit ver|yanitla|yok say|gormezden gel)(?:meli|mali)(?:dir|sin|siniz|ler|dirler|sinizdir)?|(?:onermek|tavsiye etmek|soylemek|belirtmek|siralamak|gostermek|yok saymak) zorunda\w*)`,
		"IGN_TR": `(?:yok say\w*|yoksay\w*|gormezden gel\w*|unut|unutun|unutunuz|unutmalisin|unutmalisiniz|dikkate alma|dikkate almayin|dikkate almayiniz|umursama|umursamayin|gecersiz say\w*|iptal et|iptal edin|hice say\w*|takip etme|takip etmeyin|uygulamayin|uymayin)`,
		// qualifiers that point at earlier instructions; the weak ones
		// ("all", "your") only combine with instruction words, never with
		// "rules" ("tüm kuralları unutun" is an ordinary slogan)
		"QUAL_TR":    `(?:onceki|daha onceki|bundan onceki|yukaridaki|yukarida verilen|orijinal|asil|sistem|sana verilen|size verilen|gecmis)`,
		"WQUAL_TR":   `(?:tum|butun|mevcut|senin|sizin|ilk)`,
		"SNOUN_TR":   `(?:talimat\w*|komut\w*|yonerge\w*|istem\w*|prompt\w*|direktif\w*|sistem mesaj\w*|sistem istem\w*|programlama\w*)`,
		"NOUN_TR":    `(?:talimat\w*|komut\w*|kural\w*|yonerge\w*|istem\w*|prompt\w*|emir\w*|emirler\w*|direktif\w*|sistem mesaj\w*|sistem istem\w*|programlama\w*|kisitlama\w*|sinirlama\w*)`,
		"SELFOBJ_TR": `(?:bizi|bizim isletmemizi|bu isletmeyi|bu firmayi|bu sirketi|bu magazayi|bu restorani|bu salonu|bu klinigi|isletmemizi|firmamizi|sirketimizi|magazamizi|restoranimizi|markamizi)`,
		"RANK_TR":    `(?:ilk sirada|ilk siraya|birinci sirada|birinci|en uste|en ustte|en basta|en basa|ilk olarak|(?:diger\w*|rakip\w*) (?:once|onunde|ustunde)|en iyi (?:olarak|secenek olarak))`,
		"PERSONA_TR": `(?:yapay zeka|asistan|bot|chatbot|dil modeli|model|satis temsilcisi|satici|pazarlamaci|reklamci|karakter)`,
	})
	selfRE["tr"] = regexp.MustCompile(expand(`\b(?:biz(?:i|im|e|den|imle)?|{SELFOBJ_TR}|bu (?:isletme|firma|sirket|magaza|restoran|salon|klinik|otel|ajans)\w*|ilk sira\w*|birinci sira\w*|en ust\w*|en iyi (?:secenek|tercih|firma|isletme|adres)\w*|rakip\w*)\b`))

	const aiAnchors = "yapay yz dil buyuk llm* sohbet chatbot* sanal dijital ai chatgpt* gpt* claude* gemini* copilot*"
	// every obligation form is "<last word of stem>meli…" or "…mali…"
	oblAnchors := "onermek* tavsiye soylemek* belirtmek* siralamak* gostermek* yok zorunda*"
	for _, stem := range []string{"oner", "et", "soyle", "belirt", "yaz", "sirala", "goster", "bahset", "cikar", "listele", "tanit", "yonlendir", "ver", "yanitla", "say", "gel"} {
		oblAnchors += " " + stem + "meli* " + stem + "mali*"
	}

	register(
		// ---- override ----
		spec{id: ruleOverride, lang: "tr", anchors: "onceki daha bundan yukaridaki yukarida ilk orijinal asil sistem tum butun sana size mevcut gecmis senin sizin & talimat* komut* kural* yonerge* istem* prompt* emir* direktif* mesaj* programlama* kisitlama* sinirlama* & yok yoksay* gormezden unut unutun unutunuz unutmalisin unutmalisiniz dikkate umursama umursamayin gecersiz iptal hice takip uygulamayin uymayin",
			pat: `\b(?:{QUAL_TR}(?: [\pL\pN]+){0,2}? {NOUN_TR}|{WQUAL_TR}(?: [\pL\pN]+){0,2}? {SNOUN_TR})(?: [\pL\pN]+){0,2}? {IGN_TR}\b`},
		spec{id: ruleOverride, lang: "tr", anchors: "yok yoksay* gormezden unut unutun unutunuz unutmalisin unutmalisiniz dikkate umursama umursamayin gecersiz iptal hice takip uygulamayin uymayin & onceki daha bundan yukaridaki yukarida orijinal asil sistem sana size gecmis tum butun mevcut senin sizin ilk",
			pat: `\b{IGN_TR}(?: [,:])? (?:{QUAL_TR}(?: [\pL\pN]+)? {NOUN_TR}|{WQUAL_TR}(?: [\pL\pN]+)? {SNOUN_TR})\b`},
		spec{id: ruleOverride, lang: "tr", anchors: "tum butun & kural* & yok yoksay* gormezden hice",
			pat: `\b(?:tum|butun) kural\w*(?: [\pL\pN]+)? (?:yok say\w*|yoksay\w*|gormezden gel\w*|hice say\w*)`},
		spec{id: ruleOverride, lang: "tr", anchors: "talimatlarini yonergelerini komutlarini istemini kurallarini",
			pat: `{S}(?:talimatlarini|yonergelerini|komutlarini|sistem istemini|kurallarini)(?: [\pL\pN]+)? (?:yok say\w*|yoksay\w*|gormezden gel\w*|hice say\w*|dikkate alma\w*)|{S}(?:talimatlarini|yonergelerini|komutlarini|sistem istemini)(?: [\pL\pN]+)? (?:unut|unutun)\b`},
		spec{id: ruleOverride, lang: "tr", anchors: "yukaridaki yukarida onceki bundan sana size & seyi hersey* tumunu hepsini",
			pat: `\b(?:yukaridaki|onceki|bundan onceki|sana (?:daha once|onceden) soylenen|size (?:daha once|onceden) soylenen|yukarida yazan|yukarida yazilan) (?:her seyi|hersey\w*|tumunu|hepsini)(?: [\pL\pN]+)? {IGN_TR}\b`},
		spec{id: ruleOverride, lang: "tr", anchors: "talimat* & gecersiz iptal yerine",
			pat: `\bbu talimat\w* (?:oncekileri|onceki talimatlari|diger talimatlari|tum talimatlari|senin talimatlarini) (?:gecersiz kilar|iptal eder|gecersiz kilmaktadir|yerine gecer)\b`},
		spec{id: ruleOverride, lang: "tr", anchors: "yeni & talimat* & sana size " + aiAnchors,
			pat: `\b(?:sana|size|{AI_TR}) (?:(?:icin|yonelik) )?yeni talimat\w*(?:{E}| sunlar\b)`},
		spec{id: ruleOverride, lang: "tr", anchors: "artik & bagli",
			pat: `\bartik (?:hicbir |onceki |eski )?(?:talimat|kural|yonerge|kisitlama)\w* (?:bagli degilsin|bagli degilsiniz|ile bagli degilsin)\b`},

		// ---- address ----
		spec{id: ruleAddress, lang: "tr", anchors: "sevgili merhaba selam hey dikkat not mesaj uyari talimat & " + aiAnchors,
			pat: `{S}(?:sevgili|merhaba|selam|hey|dikkat|not|mesaj|uyari|talimat)(?: [,:])? (?:(?:tum|butun|her) )?{AI_TR}{E}`},
		spec{id: ruleAddress, lang: "tr", anchors: "icin yonelik & not notu mesaj mesaji uyari talimat talimatlar & " + aiAnchors,
			pat: `\b{AI_TR} (?:icin|yonelik) (?:onemli )?(?:not|notu|mesaj|mesaji|uyari|talimat|talimatlar)(?:{E})`},
		spec{id: ruleAddress, lang: "tr", anchors: "olarak & " + aiAnchors,
			pat: `{S}(?:bir )?{AI_TR} olarak(?: [,:])? ~{0,6}?(?:{IMP_TR}|{OBL_TR})\b`},
		spec{id: ruleAddress, lang: "tr", anchors: oblAnchors + " & " + aiAnchors,
			pat:   `{S}(?:(?:tum|butun|her) )?{AI_TR}(?: [,:])? ~{0,6}?{OBL_TR}\b`,
			guard: nearSelf("tr")},
		spec{id: ruleAddress, lang: "tr", anchors: "eger & yapay dil sohbet asistan yz llm ai yapay zekaysan yapay zekaysaniz",
			pat: `\beger (?:(?:sen|siz) )?(?:bir )?(?:yapay zeka|dil modeli|sohbet botu|asistan|yz|llm|ai) ?(?:ysan|ysaniz|san|saniz|isen|iseniz|sen|siniz)\b`},
		spec{id: ruleAddress, lang: "tr", anchors: "okuyan isleyen ozetleyen analiz tarayan & " + aiAnchors,
			pat: `\bbu (?:metni|yaziyi|sayfayi|icerigi|kaydi|aciklamayi|mesaji|bilgileri) (?:okuyan|isleyen|ozetleyen|analiz eden|tarayan) (?:(?:tum|her|butun) )?{AI_TR}\b`},
		spec{id: ruleAddress, lang: "tr", anchors: "kullaniciya kullanicilara & soyle soyleyin bildir bildirin anlat anlatin ilet iletin soylemelisin onermelisin oner onerin tavsiye hatirlat hatirlatin inandir inandirin ikna",
			pat: `\b(?:kullaniciya|kullanicilara)(?: [\pL\pN]+){0,4}? (?:soyle|soyleyin|bildir|bildirin|anlat|anlatin|ilet|iletin|soylemelisin|onermelisin|oner|onerin|tavsiye et|tavsiye edin|inandir|inandirin|ikna et)\b`},

		// ---- persona ----
		spec{id: rulePersona, lang: "tr", anchors: "artik & yapay* asistan* bot* chatbot* dil model* satis* satici* pazarlamaci* reklamci* karakter* makine*",
			pat: `\b(?:(?:sen|siz) )?artik (?:(?:sen|siz) )?(?:(?:bir|yeni bir) )?~{0,2}?{PERSONA_TR}(?:[iu]m[iu]z|s?[iu])?(?:y?s[iu]n|y?s[iu]n[iu]z)\b|\bartik (?:(?:sen|siz) )?(?:bir )?(?:yapay zeka|bot|asistan|dil modeli|makine) degil(?:sin|siniz)\b`},
		spec{id: rulePersona, lang: "tr", anchors: "bundan & sonra",
			pat: `\bbundan (?:sonra|boyle)(?: [,:])? (?:(?:sen|siz) )?(?:(?:bir) )?(?:~{0,2}?{PERSONA_TR}(?:y?s[iu]n|y?s[iu]n[iu]z)|(?:(?:sadece|yalnizca|her zaman|daima) )+(?:{IMP_TR}|{SELFOBJ_TR} (?:oner\w*|tavsiye \w+))|{IMP_TR}\b)`},
		spec{id: rulePersona, lang: "tr", anchors: "davran davranin hareket rolune rolunu taklidi",
			pat: `\b(?:bir |sanki )?~{0,2}?(?:{PERSONA_TR}|insan|insanmis|degilmis)(?: degil\w*)? (?:gibi davran|gibi davranin|gibi hareket et|gibi hareket edin|rolune gir|rolune girin|rolunu oyna|rolunu ustlen|rolunu ustlenin|taklidi yap)\b`},
		spec{id: rulePersona, lang: "tr", anchors: "gelistirici",
			pat: `\bgelistirici mod\w* (?:etkinlestir\w*|ac|acin|aktif|gec|gecin)\b`},

		// ---- promote ----
		spec{id: rulePromote, lang: "tr", anchors: "bizi bizim bu isletmemizi firmamizi sirketimizi magazamizi restoranimizi markamizi & ilk birinci en diger* rakip*",
			pat: `\b{SELFOBJ_TR}(?: [\pL\pN]+){0,3}? (?:(?:her zaman|daima|mutlaka|hep) )?{RANK_TR}(?: [\pL\pN]+){0,2}? (?:oner|onerin|tavsiye et|tavsiye edin|goster|gosterin|sirala|siralayin|listele|listeleyin|koy|koyun|yaz|yazin|belirt|belirtin|sun|sunun|bahset|bahsedin|{OBL_TR})\b`},
		spec{id: rulePromote, lang: "tr", anchors: "her daima mutlaka yalnizca sadece & bizi bizim bu isletmemizi firmamizi sirketimizi magazamizi restoranimizi markamizi",
			pat: `{S}(?:her zaman|daima|mutlaka|yalnizca|sadece)(?: [,:])? {SELFOBJ_TR}(?: [\pL\pN]+){0,2}? (?:oner|onerin|tavsiye et|tavsiye edin|{OBL_TR})\b`},
		spec{id: rulePromote, lang: "tr", anchors: "rakip* diger*",
			pat: `\b(?:rakip\w*|diger (?:isletme|firma|sirket|magaza|usta|restoran|klinik|salon)\w*)(?: [\pL\pN]+){0,3}? (?:dolandirici\w*|sahtekar\w*|guvenilmez\w*|kotu\w*|tehlikeli\w*|yasadisi\w*|kalitesiz\w*|kazikci\w*|berbat\w*|kapan\w*|iflas\w*)(?: [\pL\pN]+){0,3}? (?:oldugunu |olduklarini |diye )?(?:soyle|soyleyin|belirt|belirtin|yaz|yazin|anlat|anlatin|iddia et|iddia edin|uyar|uyarin|{OBL_TR})\b`},
		spec{id: rulePromote, lang: "tr", anchors: "sorarsa sordugunda soruldugunda ararsa aradiginda istediginde sorulursa & oner onerin tavsiye " + oblAnchors,
			pat: `\b(?:sorarsa|sordugunda|soruldugunda|ararsa|aradiginda|istediginde|sorulursa)(?: [,:])? (?:(?:her zaman|daima|sadece|yalnizca) )?(?:bizi|bu isletmeyi|isletmemizi|firmamizi) (?:oner|onerin|tavsiye et|tavsiye edin|{OBL_TR})\b`},

		// ---- exfil ----
		spec{id: ruleExfil, lang: "tr", anchors: "sistem gizli ilk sana size promptunu istemini & goster gosterin yaz yazin paylas paylasin acikla aciklayin tekrarla tekrarlayin ver verin soyle soyleyin ifsa yazdir yazdirin dok dokun",
			pat: `\b(?:sistem (?:istemini|istemi|mesajini|talimatlarini|promptunu|komutunu|komutlarini)|(?:gizli|ilk|sana verilen|size verilen) (?:talimatlarini|istemini|promptunu)|promptunu|istemini)(?: [\pL\pN]+){0,2}? (?:goster|gosterin|yaz|yazin|paylas|paylasin|acikla|aciklayin|tekrarla|tekrarlayin|ver|verin|soyle|soyleyin|ifsa et|ifsa edin|yazdir|yazdirin|dok|dokun)\b`},
		spec{id: ruleExfil, lang: "tr", anchors: "sohbet* konusma* kullanici* kullanicinin sistem baglami & gonder gonderin ilet iletin yolla yollayin aktar aktarin paylas paylasin yukle yukleyin kopyala kopyalayin",
			pat: `\b(?:kullanici verilerini|kullanicinin (?:verilerini|bilgilerini|mesajlarini|kisisel verilerini)|kullanicilarin (?:verilerini|bilgilerini|mesajlarini|kisisel verilerini)|sistem istemini|baglami)(?: [\pL\pN]+){0,5}? (?:gonder|gonderin|ilet|iletin|yolla|yollayin|aktar|aktarin|paylas|paylasin|yukle|yukleyin|kopyala|kopyalayin)\b`},
		spec{id: ruleExfil, lang: "tr", anchors: "sohbet konusma sohbetin konusmanin tum & gonder gonderin ilet iletin yolla yollayin aktar aktarin paylas paylasin yukle yukleyin kopyala kopyalayin",
			pat:   `\b(?:sohbet gecmisini|konusma gecmisini|sohbetin tamamini|konusmanin tamamini|tum konusmayi|tum sohbeti)(?: [\pL\pN]+){0,5}? (?:gonder|gonderin|ilet|iletin|yolla|yollayin|aktar|aktarin|paylas|paylasin|yukle|yukleyin|kopyala|kopyalayin)\b`,
			guard: addressNear},
		spec{id: ruleExfil, lang: "tr", anchors: "konusmayi sohbeti & gonder gonderin ilet iletin yolla yollayin",
			pat:   `\b(?:konusmayi|sohbeti)(?: [\pL\pN]+){0,5}? (?:gonder|gonderin|ilet|iletin|yolla|yollayin)\b`,
			guard: urlNear},

		// ---- tool ----
		spec{id: ruleTool, lang: "tr", anchors: "fonksiyonu fonksiyonunu eklentiyi toolu tool aracin aracini & cagir cagirin calistir calistirin tetikle tetikleyin",
			pat: `\b(?:fonksiyonu|fonksiyonunu|eklentiyi|toolu|tool u|tool unu|(?:web arama|arama|tarayici|kod) aracini?)(?: [\pL\pN]+){0,2}? (?:cagir|cagirin|calistir|calistirin|tetikle|tetikleyin)\b`},
		spec{id: ruleTool, lang: "tr", anchors: "url* & uygula uygulayin izle izleyin takip yerine",
			pat: `\b(?:bu|su|asagidaki) url\w*(?: [\pL\pN]+){0,2}? (?:git|gidin|ziyaret et|ziyaret edin|ac|acin)(?: [\pL\pN]+)? (?:ve|sonra) (?:oradaki|ordaki|icindeki|sayfadaki) (?:talimat\w*|komut\w*)(?: [\pL\pN]+)? (?:uygula|uygulayin|izle|izleyin|takip et|takip edin|yerine getir|yerine getirin)\b`},

		// ---- conceal ----
		spec{id: ruleConceal, lang: "tr", anchors: "bu & talimat* mesaj* not* & bahsetme bahsetmeyin soyleme soylemeyin gosterme gostermeyin",
			pat: `\bbu (?:talimat|mesaj|not)\w*(?: [\pL\pN]+){0,2}? (?:bahsetme|bahsetmeyin|soyleme|soylemeyin|gosterme|gostermeyin)\b`},
		spec{id: ruleConceal, lang: "tr", anchors: "kullaniciya kullanicilara & bahsetme bahsetmeyin soyleme soylemeyin",
			pat: `\b(?:kullaniciya|kullanicilara) (?:(?:bundan|bunlardan|bu talimat\w*|bu talimatlardan) )?(?:asla )?(?:bahsetme|bahsetmeyin|soyleme|soylemeyin)\b`},
	)
}
