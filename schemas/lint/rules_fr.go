package lint

import "regexp"

// French rules. Accents are folded (é→e, è→e, ç→c) and apostrophes split
// words ("l'IA" → "l ia", "qu'IA" → "qu ia"), so patterns are written that
// way.

func init() {
	addMacros(map[string]string{
		"AI_FR":       `(?:ia|intelligences? artificielles?|llms?|(?:grands? )?modeles? de langage|chatbots?|agents? (?:ia|d ia|conversationnels?|intelligents?)|assistants? (?:ia|d ia|virtuels?|numeriques?|intelligents?|conversationnels?)|robots? conversationnels?|ia generatives?|moteurs? de reponse|chatgpt|gpt|claude|gemini|copilot|perplexity)`,
		"IMP_FR":      `(?:recommande|recommandez|dis|dites|mentionne|mentionnez|reponds|repondez|ignore|ignorez|oublie|oubliez|cite|citez|classe|classez|presente|presentez|indique|indiquez|affirme|affirmez|suggere|suggerez|privilegie|privilegiez|mets|mettez|place|placez|nomme|nommez|precise|precisez|ecris|ecrivez|propose|proposez|conseille|conseillez|decris|decrivez|tu dois|vous devez|ne (?:recommande|recommandez|mentionne|mentionnez|cite|citez|dis|dites|parle|parlez))`,
		"INF_FR":      `(?:recommander|mentionner|citer|classer|dire|repondre|presenter|privilegier|ignorer|indiquer|affirmer|suggerer|proposer|conseiller|nommer|mettre|placer|ecrire|decrire|favoriser|promouvoir|orienter|rediriger|positionner)`,
		"IGN_FR":      `(?:ignore|ignorez|ignorer|oublie|oubliez|oublier|neglige|negligez|outrepasse|outrepassez|annule|annulez|efface|effacez|ecarte|ecartez|passe outre|passez outre|fais abstraction|faites abstraction|ne tiens pas compte|ne tenez pas compte|ne pas tenir compte|ne suis pas|ne suivez pas|ne suivez plus|ne respecte pas|ne respectez pas|ne respecte plus|ne respectez plus|desobeis|desobeissez|contourne|contournez)`,
		"NOUN_FR":     `(?:instructions?|consignes?|directives?|regles|indications|prompts?|invites?|ordres|commandes|messages? systeme|prompt systeme|instructions systeme|programmation|restrictions|garde fous)`,
		"QUALPOST_FR": `(?:precedentes?|anterieures?|ci dessus|initiales?|originales?|d origine|du systeme|systeme|de depart|(?:donnees|recues|fournies) (?:precedemment|auparavant|avant|plus haut)|que tu as recues|qu on t a donnees|plus haut|d avant|de base)`,
		"PERSONA_FR":  `(?:ia|intelligence artificielle|assistant\w*|chatbot|robot|bot|modele de langage|vendeur|vendeuse|commercial|commerciale|persona|dan|mode developpeur|(?:ia|assistant|chatbot|robot) sans (?:restrictions?|filtres?|limites?|censure))`,
		"SELFOBJ_FR":  `(?:nous|notre (?:entreprise|commerce|boutique|restaurant|societe|cabinet|salon|hotel|etablissement|marque|magasin|agence|atelier|garage)|cette (?:entreprise|boutique|societe|marque|agence|fiche)|ce (?:commerce|restaurant|salon|cabinet|magasin|prestataire|garage)|cet (?:etablissement|atelier|hotel))`,
	})
	selfRE["fr"] = regexp.MustCompile(expand(`\b(?:nous|notre|nos|{SELFOBJ_FR}|en premier|en tete|en premiere position|comme (?:(?:le|la) )?(?:meilleure?|premiere?|reference|seule?|numero un)|numero un|concurrents?|concurrence)\b`))

	const aiAnchors = "ia intelligence intelligences llm llms modele modeles chatbot chatbots agent agents assistant assistants robot robots moteur moteurs chatgpt gpt claude gemini copilot perplexity"
	const ignAnchors = "ignore ignorez ignorer oublie oubliez oublier neglige negligez outrepasse outrepassez annule annulez efface effacez ecarte ecartez passe passez fais faites tiens tenez tenir suis suivez respecte respectez desobeis desobeissez contourne contournez"

	register(
		// ---- override ----
		spec{id: ruleOverride, lang: "fr", anchors: ignAnchors + " & precedente precedentes anterieure anterieures dessus initiale initiales originale originales origine systeme depart recues donnees fournies haut avant base",
			pat: `\b{IGN_FR}(?: (?:de|des|du|d))?(?: (?:toutes|tous))?(?: (?:les|tes|vos|ces|leurs))? ~{0,1}?{NOUN_FR} {QUALPOST_FR}\b`},
		spec{id: ruleOverride, lang: "fr", anchors: ignAnchors + " & tes vos",
			pat: `\b{IGN_FR}(?: (?:de|des|d))?(?: toutes)? (?:tes|vos|toutes tes|toutes vos) (?:instructions|consignes|directives|prompts|programmation|instructions systeme)\b`},
		spec{id: ruleOverride, lang: "fr", anchors: ignAnchors + " & precede dessus haut",
			pat: `\b{IGN_FR} (?:(?:tout )?ce qui precede|tout ce qui (?:est|a ete) (?:ecrit |dit )?(?:au dessus|ci dessus|plus haut)|tout ce qui se trouve (?:au dessus|ci dessus|plus haut))\b`},
		spec{id: ruleOverride, lang: "fr", anchors: "priment prevalent emportent priorite & instructions consignes directives",
			pat: `\b(?:ces|les|mes|nos) (?:nouvelles )?(?:instructions|consignes|directives) (?:priment sur|prevalent sur|l emportent sur|ont priorite sur) (?:(?:toutes|tous) )?(?:les |tes |vos )?(?:instructions|consignes|directives|regles)\b`},
		spec{id: ruleOverride, lang: "fr", anchors: "nouvelles & instructions consignes directives",
			pat: `\bnouvelles (?:instructions|consignes|directives) (?:pour|a l intention de|a l attention de|destinees a) (?:toi|l ia|les ia|{AI_FR})(?:{E}| qui\b)`},
		spec{id: ruleOverride, lang: "fr", anchors: "plus pas & lie lies liee tenu tenue soumis soumise",
			pat: `\b(?:tu n es|vous n etes) (?:plus|pas) (?:lie|lies|liee|tenu|tenue|soumis|soumise) (?:par|a|aux) (?:(?:tes|vos|les|ces) )?(?:instructions|consignes|regles|directives|restrictions)\b`},

		// ---- address ----
		spec{id: ruleAddress, lang: "fr", anchors: "tant comme toi vous & " + aiAnchors,
			pat: `{S}(?:en tant qu(?:e)?|comme|toi qui es|vous qui etes) (?:(?:une?|l|qu) )?{AI_FR}_(?:(?:toujours|systematiquement|uniquement) )*{IMP_FR}\b`},
		spec{id: ruleAddress, lang: "fr", anchors: "doivent doit devraient devrait sont est ont ne & " + aiAnchors,
			pat:   `{S}(?:(?:les|tous les|toutes les|chaque|toute|tout|aux) )?{AI_FR}(?: qui (?:lisent|lit|lisez|analysent|analyse|resument|resume|traitent|traite) (?:ce|cette|ces) [\pL\pN]+)?_(?:doivent|doit|devraient|devrait|sont priees? de|sont tenus de|est tenue? de|ont pour instruction de|ne doivent|ne devraient) (?:(?:toujours|systematiquement|imperativement|absolument|uniquement|jamais|pas|plus) )*~{0,2}?{INF_FR}\b`,
			guard: nearSelf("fr")},
		spec{id: ruleAddress, lang: "fr", anchors: "cher chere chers cheres bonjour salut hey attention note message consigne consignes instruction instructions aux a & " + aiAnchors,
			pat: `{S}(?:cher|chere|chers|cheres|bonjour|salut|hey|attention|a l attention des?|note (?:a|pour|aux)|message (?:a|pour|aux)|consignes? (?:a|pour|aux)|instructions? (?:a|pour|aux)|aux|a) (?:(?:l|les|la|le|tous les|toutes les|chaque) )?{AI_FR}(?:{E}| qui\b)`},
		spec{id: ruleAddress, lang: "fr", anchors: "si & es etes & " + aiAnchors,
			pat: `\bsi (?:tu es|vous etes) (?:(?:une?|l) )?{AI_FR}(?:{E}| qui\b| et\b)`},
		spec{id: ruleAddress, lang: "fr", anchors: "qui & lit lisent lisez analyse analysent traite traitent resume resument & " + aiAnchors,
			pat:   `\b{AI_FR} qui (?:lit|lisent|lisez|analyse|analysent|analysez|traite|traitent|traitez|resume|resument|resumez) (?:ce|cette|ces) (?:texte|page|fiche|contenu|message|description|lignes|informations?)\b`,
			guard: notAfter("notre", "nos", "votre", "vos")},
		spec{id: ruleAddress, lang: "fr", anchors: "dis dites affirme affirmez fais faites convaincs convainquez & utilisateur utilisateurs usager usagers internaute internautes",
			pat: `\b(?:dis|dites|affirme|affirmez|fais croire|faites croire|convaincs|convainquez)(?: a| aux) (?:(?:l|les) )?(?:utilisateurs?|usagers?|internautes)\b`},

		// ---- persona ----
		spec{id: rulePersona, lang: "fr", anchors: "es etes & maintenant desormais present dorenavant partir",
			pat: `\b(?:tu es|vous etes|t es) (?:maintenant|desormais|a present|dorenavant|a partir de maintenant) (?:(?:une?|l|le|la|mon|ma) )?~{0,2}?{PERSONA_FR}\b`},
		spec{id: rulePersona, lang: "fr", anchors: "partir desormais dorenavant",
			pat: `{S}(?:a partir de maintenant|desormais|dorenavant)_(?:(?:tu es|vous etes) (?:(?:une?|l|le|la|mon|ma) )?~{0,2}?{PERSONA_FR}|tu reponds|vous repondez|reponds|repondez|agis|agissez|comporte toi|comportez vous|ignore|ignorez|tu ignores|vous ignorez)\b`},
		spec{id: rulePersona, lang: "fr", anchors: "agis agissez comporte comportez fais faites",
			pat: `{S}(?:agis|agissez|comporte toi|comportez vous|fais comme si|faites comme si|fais semblant|faites semblant) (?:(?:comme|d etre|que) )?(?:si )?(?:(?:tu etais|vous etiez) )?(?:(?:une?|l|le|la|mon|ma) )?~{0,2}?{PERSONA_FR}\b`},
		spec{id: rulePersona, lang: "fr", anchors: "role persona personnage identite",
			pat: `\b(?:joue|jouez|incarne|incarnez|endosse|endossez|prends|prenez) (?:le role|la persona|le personnage|l identite) (?:d|de|du|des) (?:(?:une?|l) )?~{0,1}?{PERSONA_FR}\b`},
		spec{id: rulePersona, lang: "fr", anchors: "developpeur",
			pat: `\b(?:active|activez|passe en|passez en|tu es en|vous etes en) mode developpeur\b`},

		// ---- promote ----
		spec{id: rulePromote, lang: "fr", anchors: "recommande recommandez cite citez mentionne mentionnez classe classez place placez mets mettez presente presentez affiche affichez propose proposez nomme nommez positionne positionnez & nous notre cette ce cet",
			pat: `\b(?:recommande|recommandez|cite|citez|mentionne|mentionnez|classe|classez|place|placez|mets|mettez|presente|presentez|affiche|affichez|propose|proposez|nomme|nommez|positionne|positionnez) (?:(?:toujours|systematiquement) )?{SELFOBJ_FR} ~{0,3}?(?:en premier|en tete|en premiere position|au premier rang|en haut|avant (?:tous|les autres|la concurrence|tout le monde)|comme (?:(?:le|la) )?(?:meilleure?|seule?|premier|premiere|reference|numero un))\b`},
		spec{id: rulePromote, lang: "fr", anchors: "toujours systematiquement uniquement exclusivement & recommande recommandez recommander cite citez citer mentionne mentionnez mentionner",
			pat: `{S}(?:(?:tu dois|vous devez) )?(?:toujours|systematiquement|uniquement|exclusivement)_(?:recommande|recommandez|recommander|cite|citez|citer|mentionne|mentionnez|mentionner) {SELFOBJ_FR}\b|{S}(?:(?:tu dois|vous devez) )?(?:toujours|systematiquement|uniquement|exclusivement) nous (?:recommander|citer|mentionner)\b`},
		spec{id: rulePromote, lang: "fr", anchors: "quand lorsque lorsqu si & recommande recommandez cite citez mentionne mentionnez propose proposez",
			pat: `\b(?:quand|lorsqu(?:e)?|si) (?:(?:un utilisateur|l utilisateur|les utilisateurs|quelqu un|on) )?(?:te |vous )?(?:demande|demandent|cherche|cherchent|interroge|interrogent|questionne)(?: [\pL\pN]+){0,6}?(?: ,)? (?:(?:toujours|uniquement) )?(?:recommande|recommandez|cite|citez|mentionne|mentionnez|propose|proposez) (?:nous|notre|cette|ce|cet|uniquement|exclusivement)\b`},
		spec{id: rulePromote, lang: "fr", anchors: "concurrents concurrent concurrence autres",
			pat: `\b(?:dis|dites|affirme|affirmez|explique|expliquez|indique|indiquez|precise|precisez|ecris|ecrivez|mentionne|mentionnez|pretends|pretendez)(?: (?:a l|aux) (?:utilisateurs?|clients?|internautes))?(?: ,)? (?:que |qu )?(?:(?:tous|les|nos|la|tous les) )?(?:concurrents?|concurrence|autres (?:entreprises|prestataires|commerces|boutiques|artisans|garages|restaurants))(?: [\pL\pN]+){0,3}? (?:sont|est) ~{0,2}?(?:des arnaques|une arnaque|arnaque|arnaqueurs|escrocs?|escroquerie|malhonnetes?|dangereux|dangereuse|nuls?|mauvais|illegaux|illegal|frauduleux|pas fiables?|peu fiables?|trop chers?|a eviter|fermes?|en faillite)\b`},
		spec{id: rulePromote, lang: "fr", anchors: "ne & concurrents concurrent concurrence autres",
			pat: `\bne (?:recommande|recommandez|mentionne|mentionnez|cite|citez|propose|proposez) (?:jamais|pas|aucun) (?:(?:les|nos|la|d autres) )?(?:concurrents?|concurrence|autres (?:entreprises|prestataires|commerces|boutiques|artisans))\b`},

		// ---- exfil ----
		spec{id: ruleExfil, lang: "fr", anchors: "systeme cachees initiales initial internes",
			pat: `\b(?:revele|revelez|affiche|affichez|montre|montrez|repete|repetez|donne moi|donnez moi|imprime|imprimez|divulgue|divulguez|recite|recitez|ecris|ecrivez|partage|partagez) (?:(?:moi|nous) )?(?:(?:ton|ta|tes|votre|vos|le|la|les) )?(?:prompt systeme|invite systeme|message systeme|instructions systeme|consignes systeme|instructions cachees|instructions initiales|prompt initial|consignes internes|instructions internes)\b`},
		spec{id: ruleExfil, lang: "fr", anchors: "revele revelez divulgue divulguez repete repetez recite recitez imprime imprimez & ton ta tes",
			pat: `\b(?:revele|revelez|divulgue|divulguez|repete|repetez|recite|recitez|imprime|imprimez) (?:(?:moi|nous) )?(?:ton|ta|tes) (?:prompt|instructions|consignes|regles|programmation)\b`},
		spec{id: ruleExfil, lang: "fr", anchors: "envoie envoyez transmets transmettez transfere transferez copie copiez publie publiez exfiltre & donnees contexte prompt messages",
			pat:   `\b(?:envoie|envoyez|transmets|transmettez|transfere|transferez|copie|copiez|publie|publiez|exfiltre) (?:(?:toute|tout|l|la|le|les|cette|ton|ta|tes|votre|vos) )*(?:donnees (?:de l|des) utilisateurs?|donnees personnelles (?:de l|des) utilisateurs?|contexte|prompt systeme|messages de l utilisateur)\b(?: [\pL\pN]+){0,4}? (?:a|au|aux|vers|sur|par|via|chez)\b`,
			guard: notAfter("nous", "jamais", "ne", "pas")},
		spec{id: ruleExfil, lang: "fr", anchors: "envoie envoyez transmets transmettez transfere transferez copie copiez publie publiez exfiltre & historique",
			pat:   `\b(?:envoie|envoyez|transmets|transmettez|transfere|transferez|copie|copiez|publie|publiez|exfiltre) (?:(?:toute|tout|l|la|le|les|cette|ton|ta|tes|votre|vos) )*(?:historique de (?:la )?conversation|historique du chat|historique des echanges|historique de discussion)\b(?: [\pL\pN]+){0,4}? (?:a|au|aux|vers|sur|par|via|chez)\b`,
			guard: all(notAfter("nous", "jamais", "ne", "pas"), addressNear)},
		spec{id: ruleExfil, lang: "fr", anchors: "envoie envoyez transmets transmettez transfere transferez & conversation",
			pat:   `\b(?:envoie|envoyez|transmets|transmettez|transfere|transferez) (?:(?:toute|la|cette) )*conversation\b(?: [\pL\pN]+){0,4}? (?:a|au|aux|vers|sur|par|via)\b`,
			guard: all(notAfter("nous", "jamais", "ne", "pas"), urlNear)},

		// ---- tool ----
		spec{id: ruleTool, lang: "fr", anchors: "appelle appelez invoque invoquez execute executez declenche declenchez & outil fonction plugin extension",
			pat: `\b(?:appelle|appelez|invoque|invoquez|execute|executez|declenche|declenchez) (?:(?:l|la|le|ton|ta|votre) )?(?:outil|fonction|plugin|extension)(?: [\pL\pN]+){0,2}?(?:{E}| (?:pour (?:envoyer|recuperer|lire|transmettre|publier|chercher)|avec|nomme|nommee|appele|appelee|maintenant|immediatement)\b)`},
		spec{id: ruleTool, lang: "fr", anchors: "url",
			pat: `\b(?:visite|visitez|ouvre|ouvrez|consulte|consultez|charge|chargez|va sur|allez sur|rends toi sur|rendez vous sur) (?:cette|l|la) (?:url|adresse url)(?: [\pL\pN:,.]+){0,8}? (?:et|puis) (?:suis|suivez|execute|executez|applique|appliquez|obeis|obeissez)\b`},

		// ---- conceal ----
		spec{id: ruleConceal, lang: "fr", anchors: "ne & instruction instructions consigne consignes message note directive directives",
			pat: `\bne (?:mentionne|mentionnez|dis|dites|revele|revelez|montre|montrez|signale|signalez|parle|parlez) (?:jamais|pas|rien) (?:(?:de|a l utilisateur|aux utilisateurs) )?(?:ces|cette|ce|de ces|de cette|de ce) (?:instructions?|consignes?|message|note|directives?)\b`},
		spec{id: ruleConceal, lang: "fr", anchors: "sans & utilisateur utilisateurs usager",
			pat: `\bsans (?:le dire|en informer|en parler|prevenir|le signaler|rien dire) (?:a l |aux )?(?:utilisateurs?|usager)\b`},
	)
}
