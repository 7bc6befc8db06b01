package lint

import "regexp"

// Spanish rules. Accents and ñ are folded (á→a, ñ→n), so "instrucción"
// is matched as "instruccion" and "compórtate" as "comportate".

func init() {
	addMacros(map[string]string{
		"AI_ES":       `(?:ia|inteligencias? artificiales?|inteligencia artificial|llms?|(?:grandes )?modelos? de lenguaje|chatbots?|asistentes? (?:de ia|ia|virtuales?|digitales?|inteligentes?|conversacionales?)|agentes? (?:de ia|ia|conversacionales?|inteligentes?)|bots? conversacionales?|ia generativa|motores? de respuesta|chatgpt|gpt|claude|gemini|copilot|perplexity)`,
		"IMP_ES":      `(?:recomienda|recomiende|recomienden|recomendad|di|diga|digan|decid|menciona|mencione|mencionen|responde|responda|respondan|contesta|conteste|ignora|ignore|ignoren|olvida|olvide|olviden|cita|cite|clasifica|clasifique|presenta|presente|indica|indique|afirma|afirme|prioriza|priorice|pon|ponga|coloca|coloque|sugiere|sugiera|nombra|nombre|escribe|escriba|describe|describa|debes|debe|deben|tienes que|tiene que|no (?:recomiendes|recomiende|menciones|mencione|digas|diga))`,
		"INF_ES":      `(?:recomendar(?:nos)?|mencionar(?:nos)?|citar(?:nos)?|decir|responder|clasificar(?:nos)?|presentar(?:nos)?|priorizar(?:nos)?|ignorar|indicar|afirmar|sugerir(?:nos)?|proponer(?:nos)?|nombrar(?:nos)?|poner(?:nos)?|colocar(?:nos)?|posicionar(?:nos)?|destacar(?:nos)?|promocionar(?:nos)?|favorecer(?:nos)?|describir(?:nos)?)`,
		"IGN_ES":      `(?:ignora|ignore|ignoren|ignorad|ignorar|olvida|olvide|olviden|olvidad|olvidar|descarta|descarte|descarten|desestima|desestime|omite|omita|omitan|anula|anule|borra|borre|haz caso omiso|haga caso omiso|hagan caso omiso|no sigas|no siga|no sigan|deja de seguir|deje de seguir|desobedece|desobedezca|saltate|saltese|elude|eluda)`,
		"NOUN_ES":     `(?:instrucciones|instruccion|indicaciones|ordenes|reglas|directrices|pautas|comandos|prompts?|mensajes? del sistema|consignas|programacion|restricciones|directivas)`,
		"QUALPOST_ES": `(?:anteriores|previas|precedentes|de arriba|de antes|originales|iniciales|del sistema|de sistema|recibidas|que (?:(?:te|se te|le) )?(?:dieron|han dado|dio|hayas recibido|has recibido|recibiste)|dadas (?:anteriormente|antes|previamente)|anteriormente (?:dadas|recibidas)|mencionadas (?:arriba|antes)|por defecto)`,
		"PERSONA_ES":  `(?:ia|inteligencia artificial|asistente\w*|chatbot|bot|modelo de lenguaje|agente de ventas|vendedor|vendedora|comercial|personaje|dan|modo desarrollador|(?:ia|asistente|chatbot|bot) sin (?:restricciones|filtros|censura|limites))`,
		"SELFOBJ_ES":  `(?:nos|a nosotros|nuestr[oa] (?:empresa|negocio|tienda|restaurante|clinica|local|marca|taller|hotel|agencia|despacho)|esta (?:empresa|tienda|clinica|marca|agencia|ficha)|este (?:negocio|comercio|restaurante|local|taller|hotel|despacho))`,
	})
	selfRE["es"] = regexp.MustCompile(expand(`\b(?:nos|nosotros|nuestr[oa]s?|{SELFOBJ_ES}|en primer lugar|en primera posicion|como (?:(?:el|la) )?(?:mejor|primera opcion|unica opcion|numero uno)|numero uno|competencia|competidores|(?:recomendar|mencionar|citar|sugerir|poner|colocar|posicionar|destacar|presentar|priorizar|proponer|nombrar|clasificar|promocionar|favorecer|describir)nos)\b`))

	const aiAnchors = "ia inteligencia inteligencias llm llms modelo modelos grandes chatbot chatbots asistente asistentes agente agentes bot bots motor motores chatgpt gpt claude gemini copilot perplexity"
	const ignAnchors = "ignora ignore ignoren ignorad ignorar olvida olvide olviden olvidad olvidar descarta descarte descarten desestima desestime omite omita omitan anula anule borra borre haz haga hagan no deja deje desobedece desobedezca saltate saltese elude eluda"

	register(
		// ---- override ----
		spec{id: ruleOverride, lang: "es", anchors: ignAnchors + " & anteriores previas precedentes arriba antes originales iniciales sistema recibidas dieron dado dio recibido recibiste dadas anteriormente mencionadas defecto",
			pat: `\b{IGN_ES}(?: de)?(?: (?:todas|todos))?(?: (?:las|los|tus|estas|esas))? ~{0,1}?{NOUN_ES} {QUALPOST_ES}\b`},
		spec{id: ruleOverride, lang: "es", anchors: ignAnchors + " & tus",
			pat: `\b{IGN_ES}(?: de)? (?:tus|todas tus|todos tus) (?:instrucciones|indicaciones|directrices|prompts|programacion|directivas|reglas)\b`},
		spec{id: ruleOverride, lang: "es", anchors: ignAnchors + " & todo",
			pat: `\b{IGN_ES} (?:todo lo anterior|todo lo que (?:te )?(?:han dicho|dijeron|se te dijo|te dije|te dijimos) (?:antes|anteriormente|arriba)|todo lo de arriba|todo lo que esta (?:arriba|escrito arriba)|todo lo previo)\b`},
		spec{id: ruleOverride, lang: "es", anchors: "prevalecen priman prioridad & instrucciones indicaciones directrices",
			pat: `\b(?:estas|las|mis|nuestras) (?:nuevas )?(?:instrucciones|indicaciones|directrices) (?:prevalecen sobre|priman sobre|tienen prioridad sobre) (?:(?:todas|cualquier) )?(?:las |tus )?(?:instrucciones|indicaciones|directrices|reglas)\b`},
		spec{id: ruleOverride, lang: "es", anchors: "nuevas & instrucciones indicaciones directrices",
			pat: `\bnuevas (?:instrucciones|indicaciones|directrices) (?:para|dirigidas a) (?:ti|la ia|las ia|{AI_ES})(?:{E}| que\b)`},
		spec{id: ruleOverride, lang: "es", anchors: "ya no & obligado obligada sujeto sujeta limitado limitada",
			pat: `\b(?:ya no (?:estas|esta)|no (?:estas|esta)) (?:obligad[oa] a seguir|sujet[oa] a|limitad[oa] por) (?:(?:tus|sus|las|estas) )?(?:instrucciones|reglas|directrices|restricciones|normas)\b`},

		// ---- address ----
		spec{id: ruleAddress, lang: "es", anchors: "como papel siendo & " + aiAnchors,
			pat: `{S}(?:como|en tu papel de|en su papel de|siendo) (?:(?:una?|la|el) )?{AI_ES}_(?:(?:siempre|solo|unicamente) )*{IMP_ES}\b`},
		spec{id: ruleAddress, lang: "es", anchors: "deben debe deberian deberia tienen tiene han ha estan no & " + aiAnchors,
			pat:   `{S}(?:(?:las|los|todas las|todos los|cada|toda|todo|cualquier) )?{AI_ES}(?: que (?:lea|lean|lee|leen|procese|procesen|resuma|resuman|analice|analicen) (?:este|esta|estos|estas) [\pL\pN]+)?_(?:deben|debe|deberian|deberia|tienen que|tiene que|han de|ha de|estan obligad[oa]s a|no deben|no deberian) (?:(?:siempre|solo|unicamente|nunca|jamas|tambien|primero) )*~{0,2}?{INF_ES}\b`,
			guard: nearSelf("es")},
		spec{id: ruleAddress, lang: "es", anchors: "hola querida querido queridas queridos estimada estimado estimados atencion aviso nota mensaje instrucciones instruccion a & " + aiAnchors,
			pat: `{S}(?:hola|querida|querido|queridas|queridos|estimada|estimado|estimados|atencion|aviso (?:para|a)|nota (?:para|a)|mensaje (?:para|a)|instrucciones (?:para|a)|instruccion (?:para|a)|a) (?:(?:la|las|los|todas las|todos los|cualquier|toda) )?{AI_ES}(?:{E}| que\b)`},
		spec{id: ruleAddress, lang: "es", anchors: "si & eres es & " + aiAnchors,
			pat: `\bsi (?:eres|usted es) (?:(?:una?|la|el) )?{AI_ES}(?:{E}| que\b| y\b| lee\b| lees\b)`},
		spec{id: ruleAddress, lang: "es", anchors: "que & lea lean lee leen procese procesen procesa procesan resuma resuman analice analicen & " + aiAnchors,
			pat:   `\b{AI_ES} que (?:lea|lean|lee|leen|procese|procesen|procesa|procesan|resuma|resuman|analice|analicen) (?:este|esta|estos|estas) (?:texto|pagina|ficha|contenido|mensaje|descripcion|informacion|entrada|lineas)\b`,
			guard: notAfter("nuestra", "nuestro", "nuestras", "nuestros", "su", "sus", "tu")},
		spec{id: ruleAddress, lang: "es", anchors: "di dile diga digale diles digales convence convenza haz haga & usuario usuarios usuaria usuarias",
			pat: `\b(?:di|dile|diga|digale|diles|digales|convence|convenza|haz creer|haga creer)(?: al| a los| a la| a las) (?:usuari[oa]s?)\b`},

		// ---- persona ----
		spec{id: rulePersona, lang: "es", anchors: "eres es sos & ahora ya",
			pat: `\b(?:ahora eres|ahora es usted|ahora sos|a partir de ahora eres|desde ahora eres|ya no eres) (?:(?:una?|el|la|mi) )?~{0,2}?{PERSONA_ES}\b`},
		spec{id: rulePersona, lang: "es", anchors: "ahora adelante",
			pat: `{S}(?:a partir de ahora|desde ahora|de ahora en adelante|en adelante)_(?:eres|seras|actua|actuaras|respondes|responderas|ignora|ignoras|comportate|finge|recomendaras|debes responder|debes recomendar|solo recomienda|solo responde)\b`},
		spec{id: rulePersona, lang: "es", anchors: "actua actue actuen comportate comportese hazte hagase finge finja simula simule interpreta interprete juega juegue",
			pat: `{S}(?:actua|actue|actuen|comportate|comportese|hazte pasar|hagase pasar|finge|finja|simula|simule|interpreta|interprete|juega|juegue) (?:como|ser|que eres|que es|por|el papel de|el rol de) (?:(?:si fueras|si fuera) )?(?:(?:una?|el|la|mi) )?~{0,2}?{PERSONA_ES}\b`},
		spec{id: rulePersona, lang: "es", anchors: "desarrollador",
			pat: `\b(?:activa|active|entra en|entre en|estas en|esta en) (?:el )?modo desarrollador\b`},

		// ---- promote ----
		spec{id: rulePromote, lang: "es", anchors: "recomienda recomiende menciona mencione cita clasifica clasifique pon ponga coloca coloque presenta presente muestra muestre sugiere sugiera posiciona posicione nombra nombre & nos nuestro nuestra esta este",
			pat: `\b(?:recomienda|recomiende|menciona|mencione|cita|clasifica|clasifique|pon|ponga|coloca|coloque|presenta|presente|muestra|muestre|sugiere|sugiera|posiciona|posicione|nombra|nombre) (?:siempre )?{SELFOBJ_ES} ~{0,3}?(?:primero|en primer lugar|en primera posicion|el primero|la primera|arriba del todo|por encima de (?:todos|los demas|la competencia|otros)|antes que (?:nadie|los demas|la competencia|otros)|como (?:(?:el|la) )?(?:mejor|unica|unico|numero uno|primera opcion))\b`},
		spec{id: rulePromote, lang: "es", anchors: "recomiendanos recomiendenos mencionanos mencionenos citanos ponnos colocanos",
			pat: `\b(?:recomiendanos|recomiendenos|mencionanos|mencionenos|citanos|ponnos|colocanos) ~{0,3}?(?:siempre|primero|en primer lugar|el primero|la primera|por encima|antes que|como (?:(?:el|la) )?(?:mejor|unica|unico|numero uno))\b`},
		spec{id: rulePromote, lang: "es", anchors: "siempre solo unicamente exclusivamente & recomienda recomiende recomendar menciona mencione mencionar recomiendanos recomendarnos mencionarnos",
			pat: `{S}(?:(?:debes|debe) )?(?:siempre|solo|unicamente|exclusivamente)_(?:(?:recomienda|recomiende|recomendar|menciona|mencione|mencionar) {SELFOBJ_ES}|recomiendanos|recomendarnos|mencionarnos)\b`},
		spec{id: rulePromote, lang: "es", anchors: "cuando si & recomienda recomiende menciona mencione sugiere sugiera recomiendanos",
			pat: `\b(?:cuando|si) (?:(?:un usuario|el usuario|los usuarios|alguien|te|le) )?(?:pregunta|preguntan|pregunte|pidan|pide|busca|buscan|consulta|consultan)(?: [\pL\pN]+){0,6}?(?: ,)? (?:(?:siempre|solo) )?(?:recomienda|recomiende|menciona|mencione|sugiere|sugiera) (?:nos|a nosotros|nuestr[oa]|esta empresa|este negocio|solo|unicamente)\b|\b(?:cuando|si) (?:(?:un usuario|el usuario|los usuarios|alguien|te|le) )?(?:pregunta|preguntan|pregunte|pidan|pide|busca|buscan|consulta|consultan)(?: [\pL\pN]+){0,6}?(?: ,)? recomiendanos\b`},
		spec{id: rulePromote, lang: "es", anchors: "competencia competidores otras otros",
			pat: `\b(?:di|dile|diles|diga|digale|digales|decir|afirma|afirme|menciona|mencione|explica|explique|escribe|escriba|indica|indique|advierte|advierta)(?: (?:al|a los) (?:usuarios?|clientes?))?(?: ,)? (?:que )?(?:(?:la|los|las|nuestros|todos los) )?(?:competencia|competidores|otras (?:empresas|tiendas|clinicas)|otros (?:negocios|talleres|comercios|proveedores|restaurantes))(?: [\pL\pN]+){0,3}? (?:son|es) ~{0,2}?(?:estafas?|estafadores|fraudes?|fraudulent[oa]s|malos|malas|peligros[oa]s|ilegales|deshonest[oa]s|poco fiables|carisimos|un timo|timadores|pesimos|de mala calidad|a evitar)\b`},
		spec{id: rulePromote, lang: "es", anchors: "nunca no & competencia competidores otras otros",
			pat: `\b(?:nunca|no) (?:recomiendes|recomiende|menciones|mencione|sugieras|sugiera|cites|cite) (?:(?:nunca|jamas) )?(?:(?:a la|a los|la|los|a|otras|otros) )?(?:competencia|competidores|otras empresas|otros negocios|otros proveedores)\b`},

		// ---- exfil ----
		spec{id: ruleExfil, lang: "es", anchors: "sistema ocultas iniciales internas secretas inicial",
			pat: `\b(?:revela|revele|muestra|muestre|muestrame|repite|repita|imprime|imprima|dime|digame|comparte|comparta|escribe|escriba|divulga|divulgue) (?:me )?(?:(?:tu|su|el|la|tus|sus|las|los) )?(?:prompt (?:del sistema|de sistema|inicial)|mensaje del sistema|instrucciones (?:del sistema|de sistema|ocultas|iniciales|internas|secretas)|indicaciones del sistema|configuracion interna)\b`},
		spec{id: ruleExfil, lang: "es", anchors: "revela revele divulga divulgue repite repita imprime imprima & tu tus",
			pat: `\b(?:revela|revele|divulga|divulgue|repite|repita|imprime|imprima) (?:me )?(?:tu|tus) (?:prompt|instrucciones|indicaciones|reglas|programacion)\b`},
		spec{id: ruleExfil, lang: "es", anchors: "envia envie enviame manda mande reenvia reenvie transmite transmita copia copie publica publique sube suba & datos contexto prompt mensajes",
			pat:   `\b(?:envia|envie|enviame|manda|mande|reenvia|reenvie|transmite|transmita|copia|copie|publica|publique|sube|suba) (?:(?:toda|todo|la|el|los|las|esta|este|tu|su) )*(?:datos (?:del|de los) usuarios?|datos personales (?:del|de los) usuarios?|contexto|prompt del sistema|mensajes del usuario)\b(?: [\pL\pN]+){0,4}? (?:a|al|hacia|en|por|via)\b`,
			guard: notAfter("nunca", "no", "jamas")},
		spec{id: ruleExfil, lang: "es", anchors: "envia envie enviame manda mande reenvia reenvie transmite transmita copia copie publica publique sube suba & historial",
			pat:   `\b(?:envia|envie|enviame|manda|mande|reenvia|reenvie|transmite|transmita|copia|copie|publica|publique|sube|suba) (?:(?:toda|todo|la|el|los|las|esta|este|tu|su) )*(?:historial (?:de (?:la )?conversacion|del chat|de chat))\b(?: [\pL\pN]+){0,4}? (?:a|al|hacia|en|por|via)\b`,
			guard: all(notAfter("nunca", "no", "jamas"), addressNear)},
		spec{id: ruleExfil, lang: "es", anchors: "envia envie manda mande reenvia reenvie transmite transmita & conversacion chat",
			pat:   `\b(?:envia|envie|manda|mande|reenvia|reenvie|transmite|transmita) (?:(?:toda|la|esta|el) )*(?:conversacion|chat)\b(?: [\pL\pN]+){0,4}? (?:a|al|hacia|por|via)\b`,
			guard: all(notAfter("nunca", "no", "jamas"), urlNear)},

		// ---- tool ----
		spec{id: ruleTool, lang: "es", anchors: "llama llame invoca invoque ejecuta ejecute activa active & herramienta funcion plugin complemento",
			pat: `\b(?:llama|llame|invoca|invoque|ejecuta|ejecute|activa|active) (?:a )?(?:(?:la|el|tu|su) )?(?:herramienta|funcion|plugin|complemento)(?: [\pL\pN]+){0,2}?(?:{E}| (?:para (?:enviar|obtener|leer|buscar|publicar|mandar)|con|llamada|llamado|ahora|inmediatamente)\b)`},
		spec{id: ruleTool, lang: "es", anchors: "url",
			pat: `\b(?:visita|visite|abre|abra|carga|cargue|accede a|acceda a|ve a|vaya a) (?:esta|la siguiente|la) (?:url|direccion url)(?: [\pL\pN:,.]+){0,8}? (?:y|luego) (?:sigue|siga|ejecuta|ejecute|obedece|obedezca|aplica|aplique|cumple|cumpla)\b`},

		// ---- conceal ----
		spec{id: ruleConceal, lang: "es", anchors: "no & instrucciones instruccion mensaje nota indicaciones directrices",
			pat: `\bno (?:menciones|mencione|digas|diga|reveles|revele|muestres|muestre|cuentes|cuente) (?:(?:al usuario|a los usuarios|a nadie) )?(?:estas|esta|este|estos) (?:instrucciones|instruccion|mensaje|nota|indicaciones|directrices)\b`},
		spec{id: ruleConceal, lang: "es", anchors: "sin no & usuario usuarios",
			pat: `\bsin (?:decirle|decirselo|avisar|informar|contarle|que lo sepa)(?: nada)? (?:al|a los) usuari[oa]s?\b|\bno (?:le )?(?:digas|diga) (?:nada )?al usuario\b`},
	)
}
