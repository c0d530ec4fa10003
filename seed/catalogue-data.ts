/** Places and activity templates the demo catalogue and the benchmark generator draw from. */

export interface City {
  name: string;
  country: string;
  zip: string;
  latitude: number;
  longitude: number;
  currency: string;
  /** Local language first; English is always added. */
  languages: string[];
}

export const cities: City[] = [
  { name: "Zermatt", country: "CH", zip: "3920", latitude: 46.0207, longitude: 7.7491, currency: "CHF", languages: ["de", "fr"] },
  { name: "Lucerne", country: "CH", zip: "6003", latitude: 47.0502, longitude: 8.3093, currency: "CHF", languages: ["de"] },
  { name: "Paris", country: "FR", zip: "75001", latitude: 48.8566, longitude: 2.3522, currency: "EUR", languages: ["fr"] },
  { name: "Nice", country: "FR", zip: "06000", latitude: 43.7102, longitude: 7.262, currency: "EUR", languages: ["fr"] },
  { name: "Rome", country: "IT", zip: "00184", latitude: 41.9028, longitude: 12.4964, currency: "EUR", languages: ["it"] },
  { name: "Florence", country: "IT", zip: "50122", latitude: 43.7696, longitude: 11.2558, currency: "EUR", languages: ["it"] },
  { name: "Barcelona", country: "ES", zip: "08002", latitude: 41.3874, longitude: 2.1686, currency: "EUR", languages: ["es"] },
  { name: "Seville", country: "ES", zip: "41004", latitude: 37.3891, longitude: -5.9845, currency: "EUR", languages: ["es"] },
  { name: "Berlin", country: "DE", zip: "10117", latitude: 52.52, longitude: 13.405, currency: "EUR", languages: ["de"] },
  { name: "Munich", country: "DE", zip: "80331", latitude: 48.1351, longitude: 11.582, currency: "EUR", languages: ["de"] },
  { name: "Amsterdam", country: "NL", zip: "1012", latitude: 52.3676, longitude: 4.9041, currency: "EUR", languages: ["nl"] },
  { name: "London", country: "GB", zip: "WC2N 5DU", latitude: 51.5074, longitude: -0.1278, currency: "GBP", languages: [] },
  { name: "Edinburgh", country: "GB", zip: "EH1 1YZ", latitude: 55.9533, longitude: -3.1883, currency: "GBP", languages: [] },
  { name: "Lisbon", country: "PT", zip: "1100-148", latitude: 38.7223, longitude: -9.1393, currency: "EUR", languages: ["pt"] },
  { name: "Vienna", country: "AT", zip: "1010", latitude: 48.2082, longitude: 16.3738, currency: "EUR", languages: ["de"] },
  { name: "Athens", country: "GR", zip: "105 58", latitude: 37.9838, longitude: 23.7275, currency: "EUR", languages: ["el"] },
  { name: "Prague", country: "CZ", zip: "110 00", latitude: 50.0755, longitude: 14.4378, currency: "CZK", languages: ["cs"] },
  { name: "Dublin", country: "IE", zip: "D02", latitude: 53.3498, longitude: -6.2603, currency: "EUR", languages: [] },
  { name: "Copenhagen", country: "DK", zip: "1050", latitude: 55.6761, longitude: 12.5683, currency: "DKK", languages: ["da"] },
  { name: "New York", country: "US", zip: "10036", latitude: 40.758, longitude: -73.9855, currency: "USD", languages: ["es"] },
  { name: "San Francisco", country: "US", zip: "94103", latitude: 37.7749, longitude: -122.4194, currency: "USD", languages: [] },
  { name: "Cancún", country: "MX", zip: "77500", latitude: 21.1619, longitude: -86.8515, currency: "MXN", languages: ["es"] },
  { name: "Kyoto", country: "JP", zip: "600-8216", latitude: 35.0116, longitude: 135.7681, currency: "JPY", languages: ["ja"] },
  { name: "Bangkok", country: "TH", zip: "10200", latitude: 13.7563, longitude: 100.5018, currency: "THB", languages: ["th"] },
  { name: "Sydney", country: "AU", zip: "2000", latitude: -33.8688, longitude: 151.2093, currency: "AUD", languages: [] },
  { name: "Cape Town", country: "ZA", zip: "8001", latitude: -33.9249, longitude: 18.4241, currency: "ZAR", languages: [] },
  { name: "Marrakesh", country: "MA", zip: "40000", latitude: 31.6295, longitude: -7.9811, currency: "MAD", languages: ["fr", "ar"] },
  { name: "Dubai", country: "AE", zip: "00000", latitude: 25.2048, longitude: 55.2708, currency: "AED", languages: ["ar"] },
];

type Texts = Partial<Record<"en" | "de" | "fr" | "es" | "it" | "nl" | "pt", string>> & { en: string };

export interface ActivityTemplate {
  category: string;
  subcategory: string;
  title: Texts;
  description: string;
  /** ISO 8601 duration. */
  duration: string;
  /** Price range in EUR, converted roughly to the city's currency. */
  price: [number, number];
  pricingUnit: string;
  availabilityType: "START_TIME" | "OPENING_HOURS";
  /** Restaurants carry a price level and an average meal price instead of a ticket price. */
  restaurant?: boolean;
}

export const templates: ActivityTemplate[] = [
  { category: "tours", subcategory: "walking-tours", title: { en: "Old town walking tour", de: "Altstadtrundgang", fr: "Visite à pied de la vieille ville", es: "Tour a pie por el casco antiguo", it: "Tour a piedi del centro storico" }, description: "Two hours through lanes, squares and stories with a local guide.", duration: "PT2H", price: [15, 35], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "tours", subcategory: "bike-tours", title: { en: "City highlights by bike", de: "Stadthighlights mit dem Fahrrad", fr: "Les incontournables à vélo", es: "Lo mejor de la ciudad en bici", it: "I luoghi simbolo in bicicletta" }, description: "An easy ride past the landmarks, bike and helmet included.", duration: "PT3H", price: [29, 49], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "tours", subcategory: "private-tours", title: { en: "Private guided tour", de: "Private Führung", fr: "Visite guidée privée", es: "Visita guiada privada", it: "Visita guidata privata" }, description: "Your own guide, your own pace, for your group only.", duration: "PT4H", price: [180, 420], pricingUnit: "GROUP", availabilityType: "START_TIME" },
  { category: "tours", subcategory: "day-trips", title: { en: "Full-day countryside trip", de: "Ganztagesausflug aufs Land", fr: "Excursion d'une journée à la campagne", es: "Excursión de un día al campo", it: "Gita di un giorno in campagna" }, description: "Villages, viewpoints and a long lunch, with hotel pick-up.", duration: "PT9H", price: [79, 149], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "tours", subcategory: "hop-on-hop-off", title: { en: "Hop-on hop-off bus, 24 hours", de: "Hop-on-Hop-off-Bus, 24 Stunden", fr: "Bus touristique 24 heures", es: "Bus turístico 24 horas", it: "Bus hop-on hop-off 24 ore" }, description: "Open-top bus with audio guide in twelve languages.", duration: "P1D", price: [25, 45], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS" },
  { category: "tours", subcategory: "bus-tours", title: { en: "Panoramic coach tour", de: "Panorama-Busrundfahrt", fr: "Tour panoramique en autocar", es: "Recorrido panorámico en autocar", it: "Tour panoramico in pullman" }, description: "The city and its surroundings from a comfortable coach.", duration: "PT5H", price: [39, 69], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "tickets-attractions", subcategory: "museums", title: { en: "National museum entry ticket", de: "Eintritt ins Nationalmuseum", fr: "Billet d'entrée au musée national", es: "Entrada al museo nacional", it: "Biglietto d'ingresso al museo nazionale" }, description: "Skip the ticket desk; the permanent collection and temporary shows.", duration: "PT3H", price: [12, 25], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS" },
  { category: "tickets-attractions", subcategory: "landmarks", title: { en: "Cathedral and tower ticket", de: "Ticket für Kathedrale und Turm", fr: "Billet cathédrale et tour", es: "Entrada a la catedral y la torre", it: "Biglietto per cattedrale e torre" }, description: "Climb the tower for the best view over the rooftops.", duration: "PT2H", price: [9, 22], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS" },
  { category: "tickets-attractions", subcategory: "observation-decks", title: { en: "Sky deck at sunset", de: "Aussichtsplattform bei Sonnenuntergang", fr: "Terrasse panoramique au coucher du soleil", es: "Mirador al atardecer", it: "Terrazza panoramica al tramonto" }, description: "Timed entry to the top floor as the lights come on.", duration: "PT1H30M", price: [22, 45], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "tickets-attractions", subcategory: "zoos-aquariums", title: { en: "Aquarium day ticket", de: "Tagesticket Aquarium", fr: "Billet journée aquarium", es: "Entrada de un día al acuario", it: "Biglietto giornaliero acquario" }, description: "Sharks, rays and a tunnel through the reef tank.", duration: "PT3H", price: [18, 35], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS" },
  { category: "tickets-attractions", subcategory: "theme-parks", title: { en: "Theme park one-day pass", de: "Freizeitpark Tageskarte", fr: "Pass d'une journée au parc", es: "Pase de un día al parque", it: "Pass giornaliero parco divertimenti" }, description: "All rides and shows for one day.", duration: "P1D", price: [45, 89], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS" },
  { category: "food-drink", subcategory: "food-tours", title: { en: "Street food tasting tour", de: "Streetfood-Verkostungstour", fr: "Visite dégustation street food", es: "Ruta de comida callejera", it: "Tour di street food" }, description: "Eight tastings at family-run stalls and markets.", duration: "PT3H30M", price: [55, 95], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "food-drink", subcategory: "cooking-classes", title: { en: "Cooking class with market visit", de: "Kochkurs mit Marktbesuch", fr: "Cours de cuisine et visite du marché", es: "Clase de cocina con visita al mercado", it: "Corso di cucina con visita al mercato" }, description: "Shop with the chef, cook four dishes, eat them together.", duration: "PT4H", price: [75, 140], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "food-drink", subcategory: "wine-tastings", title: { en: "Wine tasting in a historic cellar", de: "Weinprobe im historischen Keller", fr: "Dégustation de vins dans une cave historique", es: "Cata de vinos en una bodega histórica", it: "Degustazione di vini in una cantina storica" }, description: "Six wines of the region with local cheese.", duration: "PT2H", price: [35, 79], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "food-drink", subcategory: "brewery-tours", title: { en: "Craft brewery tour and tasting", de: "Craft-Brauerei-Führung mit Verkostung", fr: "Visite de brasserie artisanale", es: "Visita a cervecería artesanal", it: "Visita a un birrificio artigianale" }, description: "From malt to glass, with four beers to try.", duration: "PT1H30M", price: [19, 39], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "food-drink", subcategory: "restaurants", title: { en: "Dinner at the harbour bistro", de: "Abendessen im Hafenbistro", fr: "Dîner au bistrot du port", es: "Cena en el bistró del puerto", it: "Cena al bistrot del porto" }, description: "Seasonal menu by the water; table reservation.", duration: "PT2H", price: [30, 70], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS", restaurant: true },
  { category: "food-drink", subcategory: "restaurants", title: { en: "Tasting menu at the chef's table", de: "Degustationsmenü am Chef's Table", fr: "Menu dégustation à la table du chef", es: "Menú degustación en la mesa del chef", it: "Menu degustazione al tavolo dello chef" }, description: "Nine courses cooked in front of you.", duration: "PT3H", price: [120, 260], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS", restaurant: true },
  { category: "outdoor", subcategory: "hiking", title: { en: "Guided mountain hike", de: "Geführte Bergwanderung", fr: "Randonnée guidée en montagne", es: "Excursión guiada de montaña", it: "Escursione guidata in montagna" }, description: "A day on the trails with a certified mountain guide.", duration: "PT7H", price: [65, 140], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "outdoor", subcategory: "climbing", title: { en: "Via ferrata for beginners", de: "Klettersteig für Einsteiger", fr: "Via ferrata pour débutants", es: "Vía ferrata para principiantes", it: "Via ferrata per principianti" }, description: "Harness, helmet and a guide on a first via ferrata.", duration: "PT5H", price: [95, 180], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "outdoor", subcategory: "paragliding", title: { en: "Tandem paragliding flight", de: "Tandem-Gleitschirmflug", fr: "Vol en parapente biplace", es: "Vuelo en parapente biplaza", it: "Volo in parapendio biposto" }, description: "Twenty minutes in the air with a licensed pilot.", duration: "PT2H", price: [140, 230], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "outdoor", subcategory: "safaris", title: { en: "Wildlife safari at dawn", de: "Safari im Morgengrauen", fr: "Safari à l'aube", es: "Safari al amanecer", it: "Safari all'alba" }, description: "Open vehicle, ranger and binoculars.", duration: "PT4H", price: [85, 210], pricingUnit: "PER_VEHICLE", availabilityType: "START_TIME" },
  { category: "water", subcategory: "boat-tours", title: { en: "Sunset boat cruise", de: "Bootsfahrt bei Sonnenuntergang", fr: "Croisière au coucher du soleil", es: "Crucero al atardecer", it: "Crociera al tramonto" }, description: "Drinks on deck as the sun goes down.", duration: "PT2H", price: [35, 75], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "water", subcategory: "snorkeling-diving", title: { en: "Snorkelling trip to the reef", de: "Schnorcheltour zum Riff", fr: "Sortie snorkeling au récif", es: "Excursión de esnórquel al arrecife", it: "Escursione di snorkeling alla barriera" }, description: "Two stops, equipment and a marine biologist.", duration: "PT4H", price: [55, 120], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "water", subcategory: "kayaking", title: { en: "Sea kayak tour", de: "Seekajak-Tour", fr: "Balade en kayak de mer", es: "Ruta en kayak de mar", it: "Tour in kayak di mare" }, description: "Paddle to hidden coves; no experience needed.", duration: "PT3H", price: [45, 85], pricingUnit: "PER_EQUIPMENT", availabilityType: "START_TIME" },
  { category: "water", subcategory: "sailing", title: { en: "Private sailing charter", de: "Private Segeltour", fr: "Location privée de voilier", es: "Alquiler privado de velero", it: "Noleggio privato di barca a vela" }, description: "Skippered yacht for up to eight guests.", duration: "PT6H", price: [450, 950], pricingUnit: "PER_BOAT", availabilityType: "START_TIME" },
  { category: "culture", subcategory: "historical-sites", title: { en: "Ancient ruins with an archaeologist", de: "Antike Ruinen mit einer Archäologin", fr: "Ruines antiques avec une archéologue", es: "Ruinas antiguas con una arqueóloga", it: "Rovine antiche con un'archeologa" }, description: "Small-group visit with timed entry included.", duration: "PT3H", price: [45, 89], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "culture", subcategory: "workshops", title: { en: "Ceramics workshop", de: "Töpferkurs", fr: "Atelier de céramique", es: "Taller de cerámica", it: "Laboratorio di ceramica" }, description: "Make and glaze your own bowl; shipped home after firing.", duration: "PT2H30M", price: [49, 95], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "shows-events", subcategory: "concerts", title: { en: "Classical concert in a baroque church", de: "Klassisches Konzert in einer Barockkirche", fr: "Concert classique dans une église baroque", es: "Concierto clásico en una iglesia barroca", it: "Concerto classico in una chiesa barocca" }, description: "Vivaldi and Bach by a string ensemble.", duration: "PT1H15M", price: [25, 65], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "shows-events", subcategory: "nightlife", title: { en: "Evening bar crawl", de: "Abendliche Kneipentour", fr: "Tournée des bars en soirée", es: "Ruta de bares nocturna", it: "Giro dei locali serale" }, description: "Four bars, one guide, welcome shots.", duration: "PT4H", price: [25, 45], pricingUnit: "PER_PERSON", availabilityType: "START_TIME" },
  { category: "wellness", subcategory: "spas", title: { en: "Thermal spa day pass", de: "Tageskarte Therme", fr: "Accès journée aux thermes", es: "Pase de día al balneario", it: "Ingresso giornaliero alle terme" }, description: "Pools, saunas and a relaxation area.", duration: "P1D", price: [35, 85], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS" },
  { category: "transport", subcategory: "airport-transfers", title: { en: "Private airport transfer", de: "Privater Flughafentransfer", fr: "Transfert privé aéroport", es: "Traslado privado al aeropuerto", it: "Trasferimento privato aeroporto" }, description: "Meet and greet, fixed price, up to four passengers.", duration: "PT1H", price: [45, 120], pricingUnit: "PER_VEHICLE", availabilityType: "START_TIME" },
  { category: "transport", subcategory: "city-passes", title: { en: "City pass, 48 hours", de: "City Pass, 48 Stunden", fr: "City pass 48 heures", es: "Pase turístico 48 horas", it: "City pass 48 ore" }, description: "Public transport and forty attractions.", duration: "P2D", price: [59, 119], pricingUnit: "PER_PERSON", availabilityType: "OPENING_HOURS" },
  { category: "family", subcategory: "escape-rooms", title: { en: "Escape room adventure", de: "Escape-Room-Abenteuer", fr: "Aventure escape game", es: "Aventura en sala de escape", it: "Avventura escape room" }, description: "Sixty minutes, one mystery, two to six players.", duration: "PT1H", price: [90, 160], pricingUnit: "GROUP", availabilityType: "START_TIME" },
  { category: "family", subcategory: "kids-activities", title: { en: "Family treasure hunt", de: "Familien-Schatzsuche", fr: "Chasse au trésor en famille", es: "Búsqueda del tesoro en familia", it: "Caccia al tesoro in famiglia" }, description: "A game through the streets for kids from six.", duration: "PT2H", price: [39, 69], pricingUnit: "FAMILY", availabilityType: "START_TIME" },
];

/** Rough conversion from EUR, so that generated prices look plausible in each currency. */
export const eurTo: Record<string, number> = { EUR: 1, CHF: 0.95, GBP: 0.85, USD: 1.08, CZK: 25, DKK: 7.45, MXN: 19, JPY: 160, THB: 38, AUD: 1.65, ZAR: 20, MAD: 10.8, AED: 4 };

/** "in Paris", "à Paris", … per language. */
export const inCity: Record<string, string> = { en: "in", de: "in", fr: "à", es: "en", it: "a", nl: "in", pt: "em" };
