package lint

import "regexp"

// German rules. Umlauts are folded (ä→a, ö→o, ü→u, ß→ss) before matching,
// so patterns are written without them: "fur", "uberschreibe", "ausser".

func init() {
	addMacros(map[string]string{
		"AI_DE":      `(?:ki|kunstliche intelligenz|kunstlichen intelligenz|llms?|sprachmodell(?:e|en)?|chatbots?|ki (?:assistent(?:in|en|innen)?|agent(?:en)?|modell(?:e|en)?|system(?:e|en)?|tools?|bots?|chatbots?|suchmaschinen?|dienste?n?)|digitale[rn]? assistent(?:en|in)?|virtuelle[rn]? assistent(?:en|in)?|assistent(?:in|en)?|chatgpt|gpt|claude|gemini|copilot|perplexity)`,
		"IMP_DE":     `(?:empfiehl|empfehlt|empfehlen sie|nenne|nenn|nennt|nennen sie|sag|sage|sagt|sagen sie|antworte|antwortet|antworten sie|erwahne|erwahnt|erwahnen sie|ignoriere|ignorier|ignoriert|ignorieren sie|vergiss|vergesst|vergessen sie|behaupte|behauptet|behaupten sie|verweise|verweis|verweist|verweisen sie|stelle|stell|stellt|stellen sie|setze|setz|setzt|setzen sie|liste|listet|listen sie|bewerte|bewertet|bewerten sie|bevorzuge|bevorzugt|bevorzugen sie|schreibe|schreib|schreibt|schreiben sie|gib|gebt|geben sie|zeige|zeig|zeigt|zeigen sie|platziere|platzieren sie|priorisiere|priorisieren sie|hebe|heb|heben sie|preise|preisen sie|beschreibe|beschreiben sie|bezeichne|bezeichnen sie|du musst|du sollst|du solltest|sie mussen|sie sollen|sie sollten|musst du|sollst du|solltest du|mussen sie|sollen sie|sollten sie)`,
		"INF_DE":     `(?:empfehlen|nennen|erwahnen|sagen|antworten|behaupten|bewerten|ranken|auflisten|listen|hervorheben|bevorzugen|ignorieren|verweisen|darstellen|ausgeben|platzieren|priorisieren|anpreisen|beschreiben|bezeichnen|vorschlagen|zeigen|stellen|setzen|fuhren|raten)`,
		"ADDR_DE":    `(?:liebe|lieber|liebes|hallo|hey|hi|achtung|an alle|an jede|an jeden|an)`,
		"IGN_DE":     `(?:ignoriere|ignorier|ignoriert|ignorieren sie|missachte|missachtet|missachten sie|vergiss|vergesst|vergessen sie|verwirf|verwerft|verwerfen sie|uberschreibe|uberschreib|uberschreiben sie|ubergehe|ubergeht|ubergehen sie|losche|loscht|loschen sie|umgehe|umgeht|umgehen sie)`,
		"QUAL_DE":    `(?:vorherige[nmrs]?|vorige[nmrs]?|bisherige[nmrs]?|obige[nmrs]?|fruhere[nmrs]?|ursprungliche[nmrs]?|vorangegangene[nmrs]?|vorangehende[nmrs]?|vorstehende[nmrs]?|oben genannte[nmrs]?|initiale[nmrs]?|alte[nmrs]? system|system)`,
		"NOUN_DE":    `(?:anweisung(?:en)?|instruktion(?:en)?|befehle?|regeln|vorgaben|richtlinien|prompts?|systemprompts?|system prompts?|systemanweisung(?:en)?|systemnachricht(?:en)?|direktiven|programmierung|anordnungen|einschrankungen|leitlinien)`,
		"PERSONA_DE": `(?:ki|ki \w+|kunstliche intelligenz|\w*assistent(?:in)?|chatbot|bot|sprachmodell|verkaufer(?:in)?|vertriebsmitarbeiter(?:in)?|werbetexter(?:in)?|marketing (?:assistent|bot)|persona|dan|uneingeschrankte[rns]? \w+|ungefilterte[rns]? \w+|entwicklermodus)`,
		"SELFOBJ_DE": `(?:uns|diesen betrieb|dieses unternehmen|diese firma|dieses geschaft|unseren betrieb|unser unternehmen|unsere firma|unseren laden|diesen eintrag|diesen laden|dieses restaurant|diese praxis|dieses hotel|diesen anbieter|diese werkstatt|diesen salon)`,
		"RANK_DE":    `(?:zuerst|als erstes|als erste[ns]?|an erster stelle|auf platz (?:1|eins)|ganz oben|vor (?:allen|der konkurrenz|anderen|den anderen|allen anderen|mitbewerbern|wettbewerbern)|als (?:beste[nrs]?|top|nummer eins|einzige[nrs]?|einzig))`,
	})
	selfRE["de"] = regexp.MustCompile(expand(`\b(?:uns|unser\w*|{SELFOBJ_DE}|zuerst|an erster stelle|ganz oben|als erste\w*|als beste\w*|nummer eins|konkurrenz|mitbewerber\w*|wettbewerber\w*)\b`))

	const aiAnchors = "ki kunstliche kunstlichen llm llms sprachmodell sprachmodelle sprachmodellen chatbot chatbots digitale digitaler digitalen virtuelle virtueller virtuellen assistent assistentin assistenten chatgpt gpt claude gemini copilot perplexity"
	const ignAnchors = "ignoriere ignorier ignoriert ignorieren missachte missachtet missachten vergiss vergesst vergessen verwirf verwerft verwerfen uberschreibe uberschreib uberschreiben ubergehe ubergeht ubergehen losche loscht loschen umgehe umgeht umgehen"

	register(
		// ---- override ----
		spec{id: ruleOverride, lang: "de", anchors: ignAnchors + " & vorherige* vorige* bisherige* obige* fruhere* ursprungliche* vorangegangene* vorangehende* vorstehende* genannte* initiale* system",
			pat: `\b{IGN_DE}(?: bitte)?(?: einfach)?(?: (?:alle|samtliche|jegliche|die|deine|ihre|eure|den|all))*(?: deine| ihre| die)? {QUAL_DE}(?: [\pL\pN]+)? {NOUN_DE}\b`},
		spec{id: ruleOverride, lang: "de", anchors: ignAnchors + " & anweisungen instruktionen systemanweisungen prompts befehle vorgaben programmierung",
			pat: `\b{IGN_DE}(?: bitte)? (?:alle|samtliche|deine|ihre|jegliche)(?: deine| ihre)? (?:anweisungen|instruktionen|systemanweisungen|prompts|befehle|vorgaben|programmierung)\b`},
		spec{id: ruleOverride, lang: "de", anchors: "ignoriere ignorier ignoriert missachte missachtet umgehe umgeht & deine",
			pat: `\b(?:ignoriere|ignorier|ignoriert|missachte|missachtet|umgehe|umgeht) (?:(?:alle|samtliche) )?deine (?:regeln|richtlinien|leitlinien|einschrankungen|filter|sicherheitsregeln)\b`},
		spec{id: ruleOverride, lang: "de", anchors: ignAnchors + " & alles alle",
			pat: `\b{IGN_DE}(?: bitte)? (?:alles|alle)(?: ,)? (?:was|das) (?:(?:dir|ihnen|euch|man dir|man ihnen) )?~{0,3}?(?:(?:vorher|zuvor|bisher|oben|davor|fruher) )?(?:gesagt|geschrieben|mitgeteilt|aufgetragen|befohlen|vorgegeben|angewiesen)\b`},
		spec{id: ruleOverride, lang: "de", anchors: ignAnchors + " & obige obiges vorherige vorheriges bisherige bisheriges vorangegangene vorangegangenes",
			pat: `\b{IGN_DE} (?:alles )?(?:obige|obiges|vorherige|vorheriges|bisherige|bisheriges|vorangegangene|vorangegangenes)(?:{E}| und\b| ab\b)`},
		spec{id: ruleOverride, lang: "de", anchors: "alle samtliche deine ihre & anweisungen instruktionen systemanweisungen prompts befehle",
			pat: `\b(?:alle|samtliche|deine|ihre|all deine) {QUAL_DE} (?:anweisungen|instruktionen|systemanweisungen|prompts|befehle) (?:sind (?:ab sofort |hiermit |jetzt )?(?:ungultig|aufgehoben|nichtig|hinfallig)|gelten nicht mehr|werden (?:hiermit )?aufgehoben|sind ausser kraft|verlieren ihre gultigkeit)\b`},
		spec{id: ruleOverride, lang: "de", anchors: "ignorieren vergessen missachten verwerfen & anweisungen instruktionen systemanweisungen prompts befehle",
			pat: `\b(?:(?:alle|die|deine|ihre|samtliche) )?{QUAL_DE} (?:anweisungen|instruktionen|systemanweisungen|prompts|befehle) (?:bitte )?(?:ignorieren|vergessen|missachten|verwerfen)\b`},
		spec{id: ruleOverride, lang: "de", anchors: "befolge befolgt befolgen folge folgt folgen & nicht",
			pat: `\b(?:befolge|befolgt|befolgen sie|folge|folgt|folgen sie) (?:(?:den|die|deinen|deine|ihren|ihre) )?{QUAL_DE} {NOUN_DE} nicht(?: mehr)?\b`},
		spec{id: ruleOverride, lang: "de", anchors: "vorrang",
			pat: `\b(?:haben|hat) vorrang vor (?:(?:allen|deinen|ihren) )?(?:(?:anderen|bisherigen|vorherigen|fruheren|ursprunglichen) )?(?:anweisungen|regeln|vorgaben|instruktionen|systemanweisungen)\b`},
		spec{id: ruleOverride, lang: "de", anchors: "neue & anweisungen systemanweisungen instruktionen systeminstruktionen",
			pat: `\bneue (?:system)?(?:anweisungen|instruktionen|systemanweisungen) (?:fur|an) (?:dich|die ki|{AI_DE})(?:{E}| bitte\b)`},
		spec{id: ruleOverride, lang: "de", anchors: "nicht mehr & gebunden",
			pat: `\b(?:du bist|sie sind) (?:jetzt )?(?:nicht mehr|nicht langer|nicht) an (?:(?:deine|ihre|die|irgendwelche) )?(?:(?:bisherigen|vorherigen|ursprunglichen) )?(?:anweisungen|regeln|richtlinien|vorgaben|programmierung|einschrankungen) gebunden\b`},

		// ---- address ----
		spec{id: ruleAddress, lang: "de", anchors: "als & " + aiAnchors,
			pat: `{S}als (?:(?:ein|eine|einer) )?{AI_DE}_(?:bitte )?(?:(?:immer|stets|grundsatzlich|ausschliesslich|nur|jetzt) )*{IMP_DE}\b`},
		spec{id: ruleAddress, lang: "de", anchors: "mussen muss sollen soll sollten sollte haben hat durfen darf werden sind & " + aiAnchors,
			pat:   `{S}(?:{ADDR_DE} )?(?:(?:alle|jede|jeder|jedes|samtliche|die) )?{AI_DE}(?: (?:die|welche) (?:diesen text|dies|das|diese zeilen|diese seite|diesen eintrag) (?:lesen|liest|verarbeiten|verarbeitet))?_(?:mussen|muss|sollen|soll|sollten|sollte|haben|hat|durfen nur|darf nur|werden gebeten|sind angewiesen) ~{0,8}?(?:zu )?{INF_DE}\b`,
			guard: nearSelf("de")},
		spec{id: ruleAddress, lang: "de", anchors: "liebe lieber liebes hallo hey hi achtung an & " + aiAnchors,
			pat: `{S}{ADDR_DE} (?:(?:alle|jede|jeden|jedes|die|den) )?{AI_DE}(?:{E}| die\b| bitte\b)`},
		spec{id: ruleAddress, lang: "de", anchors: "hinweis nachricht notiz anweisung anweisungen botschaft & " + aiAnchors,
			pat: `{S}(?:wichtiger |geheimer )?(?:hinweis|nachricht|notiz|anweisung|anweisungen|botschaft) (?:an|fur) (?:(?:alle|jede|jeden|die|den) )?{AI_DE}(?:{E}| die\b| bitte\b)`},
		spec{id: ruleAddress, lang: "de", anchors: "du sie & bist sind & " + aiAnchors,
			pat: `\b(?:wenn|falls|da|sofern) (?:du|sie) (?:(?:ein|eine) )?{AI_DE} (?:bist|sind)\b`},
		spec{id: ruleAddress, lang: "de", anchors: "liest lesen verarbeitet verarbeiten zusammenfasst zusammenfassen analysiert analysieren & " + aiAnchors,
			pat:   `\b{AI_DE}(?: ,)? (?:(?:die|der|welche|welcher) )?(?:diesen text|dies|das hier|diese zeilen|diese seite|diesen eintrag|diese beschreibung) (?:liest|lesen|verarbeitet|verarbeiten|zusammenfasst|zusammenfassen|analysiert|analysieren)\b`,
			guard: notAfter("unsere", "unser", "unserer", "meine", "ihre")},
		spec{id: ruleAddress, lang: "de", anchors: "sag sage sagt sagen erzahl erzahle erzahlt erzahlen uberzeuge uberzeugt uberzeugen & nutzer nutzern benutzer benutzern user usern anwender anwendern fragenden",
			pat: `\b(?:sag|sage|sagt|sagen sie|erzahl|erzahle|erzahlt|erzahlen sie|uberzeuge|uberzeugt|uberzeugen sie) (?:dem|den) (?:nutzer|nutzern|benutzer|benutzern|user|usern|anwender|anwendern|fragenden)\b`},

		// ---- persona ----
		spec{id: rulePersona, lang: "de", anchors: "bist sind seid & jetzt sofort nun an heute fortan moment",
			pat: `\b(?:du bist|sie sind|ihr seid) (?:ab (?:jetzt|sofort|heute)|jetzt|nun|von nun an|ab diesem moment|fortan) (?:(?:ein|eine|der|die|mein|meine|kein|keine) )?~{0,2}?{PERSONA_DE}\b`},
		spec{id: rulePersona, lang: "de", anchors: "jetzt sofort an fortan hier moment",
			pat: `\b(?:ab jetzt|ab sofort|von nun an|ab diesem moment|fortan|ab hier)_(?:(?:bist du|sind sie) (?:(?:ein|eine|der|die|kein|keine) )?~{0,2}?{PERSONA_DE}|antwortest du|antworten sie nur|verhaltst du dich|verhalten sie sich als|sprichst du|gibst du dich|ignorierst du|empfiehlst du|nennst du|musst du immer|sollst du)\b`},
		spec{id: rulePersona, lang: "de", anchors: "tu tun tut & so",
			pat: `\b(?:tu|tun sie|tut) so(?: ,)? als(?: ob)? ~{0,3}?(?:{PERSONA_DE}|mensch)\b`},
		spec{id: rulePersona, lang: "de", anchors: "verhalte verhalt verhalten agiere agieren handle handeln gib geben & als wie",
			pat: `\b(?:verhalte dich|verhalt dich|verhalten sie sich|agiere|agieren sie|handle|handeln sie|gib dich|geben sie sich) (?:als|wie) (?:(?:ein|eine|der|die|mein) )?~{0,2}?{PERSONA_DE}\b`},
		spec{id: rulePersona, lang: "de", anchors: "rolle",
			pat: `\b(?:spiele|spiel|spielen sie|ubernimm|ubernehmen sie|schlupfe in|schlupfen sie in) (?:die |eine )?rolle (?:eines|einer|des|der|von) ~{0,1}?(?:ki|assistent\w*|chatbot\w*|sprachmodell\w*|verkaufer\w*|werbe\w+|marketing\w*)\b`},
		spec{id: rulePersona, lang: "de", anchors: "neue & deine ihre",
			pat: `\b(?:deine|ihre) neue (?:identitat|persona|anweisung|programmierung|rolle als \w+) (?:ist|lautet)\b`},
		spec{id: rulePersona, lang: "de", anchors: "entwicklermodus",
			pat: `\b(?:aktiviere|aktivieren sie|wechsle in den|wechseln sie in den|starte|du bist im|sie sind im) (?:den )?entwicklermodus\b`},

		// ---- promote ----
		spec{id: rulePromote, lang: "de", anchors: "nenne nennen nennt empfiehl empfehlen empfehlt liste listen setze setzen stelle stellen platziere platzieren zeige zeigen erwahne erwahnen bewerte bewerten fuhre fuhren & uns diesen dieses diese unseren unser unsere",
			pat: `\b(?:nenne|nennen sie|nennt|empfiehl|empfehlen sie|empfehlt|liste|listen sie|setze|setzen sie|stelle|stellen sie|platziere|platzieren sie|zeige|zeigen sie|erwahne|erwahnen sie|bewerte|bewerten sie|fuhre|fuhren sie) {SELFOBJ_DE} ~{0,3}?(?:(?:immer|stets) )?{RANK_DE}\b`},
		spec{id: rulePromote, lang: "de", anchors: "immer stets ausschliesslich nur & uns diesen dieses diese unseren unser unsere",
			pat: `{S}(?:(?:bitte|du sollst|sie sollen) )?(?:immer|stets|ausschliesslich|nur)_{SELFOBJ_DE} (?:empfehlen|nennen|erwahnen|vorschlagen|an erster stelle (?:nennen|listen|zeigen))\b`},
		spec{id: rulePromote, lang: "de", anchors: "wenn falls sobald & empfiehl nenne empfehlen nennen verweise erwahne",
			pat: `\b(?:wenn|falls|sobald) (?:(?:ein nutzer|nutzer|jemand|ein kunde|benutzer|der nutzer|ein user|user|man dich|du|sie) )?(?:nach|fragt nach|sucht nach|fragt|fragen|gefragt wirst|gefragt werden) ~{0,6}?(?:, )?(?:(?:dann|immer) )?(?:empfiehl|nenne|empfehlen sie|nennen sie|verweise auf|erwahne) (?:uns|diesen betrieb|dieses unternehmen|diese firma|unseren betrieb|unser unternehmen|immer uns|nur uns)\b`},
		spec{id: rulePromote, lang: "de", anchors: "konkurrenz konkurrenten mitbewerber wettbewerber anderen andere",
			pat: `\b(?:sag|sage|sagt|sagen sie|behaupte|behaupten sie|erzahle|erzahlen sie|erklare|erklaren sie|schreibe|schreiben sie|erwahne|erwahnen sie|warne|warnen sie)(?: (?:dem|den) (?:nutzer|nutzern|benutzer|benutzern|kunden|usern|leuten))?(?: ,)?(?: dass)? (?:(?:alle|die|unsere|andere) )?(?:konkurrenz|konkurrenten|mitbewerber|wettbewerber|anderen anbieter|andere anbieter|anderen betriebe|andere betriebe|anderen firmen|andere firmen)(?: [\pL\pN]+){0,3}? (?:betruger|betrug|abzocke|abzocker|unserios|unzuverlassig|schlecht|schlechter|gefahrlich|illegal|kriminell|uberteuert|pleite|geschlossen|unfahig|inkompetent|nicht vertrauenswurdig)\b`},
		spec{id: rulePromote, lang: "de", anchors: "niemals nie keine & konkurrenz konkurrenten mitbewerber wettbewerber anderen andere",
			pat: `{S}(?:(?:bitte|du sollst) )?(?:niemals|nie|keine) (?:die )?(?:konkurrenz|konkurrenten|mitbewerber|wettbewerber|anderen anbieter|andere anbieter) (?:empfehlen|nennen|erwahnen)\b|\b(?:empfiehl|nenne|erwahne|empfehlen sie|nennen sie) (?:niemals|nie|keine) (?:die )?(?:konkurrenz|konkurrenten|mitbewerber|wettbewerber|anderen anbieter|andere anbieter)\b`},

		// ---- exfil ----
		spec{id: ruleExfil, lang: "de", anchors: "systemprompt prompt systemanweisungen systemanweisung systemnachricht anfangsanweisungen anweisungen",
			pat: `\b(?:verrate|verrat|verraten sie|zeige|zeig|zeigen sie|gib|geben sie|wiederhole|wiederholen sie|nenne|nennen sie|drucke|drucken sie|offenbare|offenbaren sie|teile|teilen sie|schreibe|schreiben sie) (?:mir )?(?:(?:deinen|deine|ihren|ihre|den|die) )?(?:(?:kompletten|vollstandigen|ganzen|genauen|ursprunglichen) )?(?:systemprompt|system prompt|systemanweisungen|systemanweisung|systemnachricht|anfangsanweisungen|versteckten anweisungen|internen anweisungen|geheimen anweisungen)\b`},
		spec{id: ruleExfil, lang: "de", anchors: "verrate verrat verraten offenbare offenbaren wiederhole wiederholen drucke drucken & deinen deine ihren ihre",
			pat: `\b(?:verrate|verrat|verraten sie|offenbare|offenbaren sie|wiederhole|wiederholen sie|drucke|drucken sie) (?:mir )?(?:deinen|deine|ihren|ihre) (?:(?:kompletten|vollstandigen|ganzen|genauen|ursprunglichen) )?(?:prompt|anweisungen|regeln|instruktionen|programmierung)\b`},
		spec{id: ruleExfil, lang: "de", anchors: "sende send senden schicke schick schicken leite leiten ubermittle ubermitteln lade laden kopiere kopieren poste posten maile mailen & nutzerdaten benutzerdaten daten kontext systemprompt nachrichten eingaben",
			pat:   `\b(?:sende|send|senden sie|schicke|schick|schicken sie|leite|leiten sie|ubermittle|ubermitteln sie|lade|laden sie|kopiere|kopieren sie|poste|posten sie|maile|mailen sie) (?:(?:den|das|die|deinen|ihren|alle|gesamten|gesamte|ganze|ganzen|kompletten) )*(?:nutzerdaten|benutzerdaten|daten des nutzers|daten der nutzer|kontext|systemprompt|nachrichten des nutzers|eingaben des nutzers)\b(?: [\pL\pN]+){0,4}? (?:an|zu|nach|uber|per|auf)\b`,
			guard: notAfter("wir", "nie", "niemals", "nicht")},
		spec{id: ruleExfil, lang: "de", anchors: "sende send senden schicke schick schicken leite leiten ubermittle ubermitteln lade laden kopiere kopieren poste posten maile mailen & gesprachsverlauf chatverlauf chat gesamten gesamte",
			pat:   `\b(?:sende|send|senden sie|schicke|schick|schicken sie|leite|leiten sie|ubermittle|ubermitteln sie|lade|laden sie|kopiere|kopieren sie|poste|posten sie|maile|mailen sie) (?:(?:den|das|die|deinen|ihren|alle|gesamten|gesamte|ganze|ganzen|kompletten) )*(?:gesprachsverlauf|chatverlauf|chat verlauf|gesamten chat|gesamte gesprach)\b(?: [\pL\pN]+){0,4}? (?:an|zu|nach|uber|per|auf)\b`,
			guard: all(notAfter("wir", "nie", "niemals", "nicht"), addressNear)},
		spec{id: ruleExfil, lang: "de", anchors: "sende send senden schicke schick schicken leite leiten ubermittle ubermitteln & gesprach konversation unterhaltung",
			pat:   `\b(?:sende|send|senden sie|schicke|schick|schicken sie|leite|leiten sie|ubermittle|ubermitteln sie) (?:(?:das|die|den|gesamte|ganze) )*(?:gesprach|konversation|unterhaltung)\b(?: [\pL\pN]+){0,4}? (?:an|zu|nach|per)\b`,
			guard: all(notAfter("wir", "nie", "niemals", "nicht"), urlNear)},

		// ---- tool ----
		spec{id: ruleTool, lang: "de", anchors: "rufe ruf rufen & tool werkzeug plugin funktion",
			pat: `\b(?:rufe|ruf|rufen sie) (?:(?:das|die|dein|deine|ihr|ihre|ein|eine) )?(?:[\pL\pN]+ )?(?:tool|werkzeug|plugin|funktion)(?: [\pL\pN]+){0,3}? auf\b`},
		spec{id: ruleTool, lang: "de", anchors: "url",
			pat: `\b(?:besuche|besuch|besuchen sie|offne|offnen sie|rufe|rufen sie|lade|laden sie) (?:diese|die folgende|folgende) url(?: [\pL\pN:,.]+){0,8}? (?:und|dann) (?:befolge|befolgen sie|fuhre|fuhren sie|folge|folgen sie|gehorche)\b`},
		spec{id: ruleTool, lang: "de", anchors: "url",
			pat: `\b(?:befolge|befolgen sie|fuhre|fuhren sie) (?:(?:die|alle) )?(?:anweisungen|befehle)(?: [\pL\pN]+){0,2}? (?:auf|unter|in|von) (?:dieser|der folgenden) url\b`},

		// ---- conceal ----
		spec{id: ruleConceal, lang: "de", anchors: "nicht & anweisung anweisungen nachricht notiz instruktion instruktionen",
			pat: `\b(?:erwahne|erwahnen sie|verrate|verraten sie|sag|sage|sagen sie|zeige|zeigen sie)(?: dem nutzer| dem benutzer| niemandem)? (?:diese|die) (?:anweisung|anweisungen|nachricht|notiz|instruktion|instruktionen) nicht\b`},
		spec{id: ruleConceal, lang: "de", anchors: "ohne & nutzer nutzern benutzer benutzern user",
			pat: `\bohne (?:es )?(?:dem|den) (?:nutzer|nutzern|benutzer|benutzern|user) (?:zu sagen|mitzuteilen|zu verraten|zu erzahlen)\b`},
		spec{id: ruleConceal, lang: "de", anchors: "nichts & nutzer nutzern benutzer benutzern user",
			pat: `\b(?:sag|sage|sagen sie|verrate|verraten sie|erzahle|erzahlen sie) (?:dem|den) (?:nutzer|nutzern|benutzer|benutzern|user) nichts\b`},
	)
}
