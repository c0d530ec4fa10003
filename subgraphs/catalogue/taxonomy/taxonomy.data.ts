import type { LanguageText } from "../../../drizzle/schema.js";

/**
 * The activities taxonomy shipped with the service (family `activities`, two levels). Codes are
 * what content partners send in a product's categories; names are shown per Accept-Language.
 */
export interface TaxonomySeed {
  code: string;
  name: LanguageText;
  children: { code: string; name: LanguageText }[];
}

const n = (en: string, de: string, fr: string, es: string, it: string, nl: string): LanguageText => ({ en, de, fr, es, it, nl });

export const TAXONOMY_FAMILY = "activities";
export const TAXONOMY_START_DATE = "2026-01-01";

export const taxonomySeed: TaxonomySeed[] = [
  {
    code: "tours",
    name: n("Tours", "Touren", "Visites guidées", "Tours", "Tour", "Rondleidingen"),
    children: [
      { code: "walking-tours", name: n("Walking tours", "Stadtspaziergänge", "Visites à pied", "Tours a pie", "Tour a piedi", "Wandeltochten") },
      { code: "bike-tours", name: n("Bike tours", "Fahrradtouren", "Visites à vélo", "Tours en bicicleta", "Tour in bicicletta", "Fietstochten") },
      { code: "bus-tours", name: n("Bus tours", "Bustouren", "Visites en bus", "Tours en autobús", "Tour in autobus", "Bustochten") },
      { code: "day-trips", name: n("Day trips", "Tagesausflüge", "Excursions d'une journée", "Excursiones de un día", "Gite di un giorno", "Dagtochten") },
      { code: "private-tours", name: n("Private tours", "Private Touren", "Visites privées", "Tours privados", "Tour privati", "Privérondleidingen") },
      { code: "hop-on-hop-off", name: n("Hop-on hop-off", "Hop-on-Hop-off", "Bus touristiques", "Autobús turístico", "Hop-on hop-off", "Hop-on hop-off") },
    ],
  },
  {
    code: "tickets-attractions",
    name: n("Tickets and attractions", "Tickets und Sehenswürdigkeiten", "Billets et attractions", "Entradas y atracciones", "Biglietti e attrazioni", "Tickets en attracties"),
    children: [
      { code: "museums", name: n("Museums", "Museen", "Musées", "Museos", "Musei", "Musea") },
      { code: "landmarks", name: n("Landmarks", "Wahrzeichen", "Monuments", "Monumentos", "Monumenti", "Bezienswaardigheden") },
      { code: "theme-parks", name: n("Theme parks", "Freizeitparks", "Parcs à thème", "Parques temáticos", "Parchi a tema", "Pretparken") },
      { code: "zoos-aquariums", name: n("Zoos and aquariums", "Zoos und Aquarien", "Zoos et aquariums", "Zoos y acuarios", "Zoo e acquari", "Dierentuinen en aquaria") },
      { code: "observation-decks", name: n("Observation decks", "Aussichtsplattformen", "Points de vue", "Miradores", "Terrazze panoramiche", "Uitkijkpunten") },
    ],
  },
  {
    code: "food-drink",
    name: n("Food and drink", "Essen und Trinken", "Gastronomie", "Comida y bebida", "Cibo e bevande", "Eten en drinken"),
    children: [
      { code: "food-tours", name: n("Food tours", "Kulinarische Touren", "Visites gastronomiques", "Tours gastronómicos", "Tour gastronomici", "Culinaire tochten") },
      { code: "cooking-classes", name: n("Cooking classes", "Kochkurse", "Cours de cuisine", "Clases de cocina", "Corsi di cucina", "Kookworkshops") },
      { code: "wine-tastings", name: n("Wine tastings", "Weinproben", "Dégustations de vin", "Catas de vino", "Degustazioni di vino", "Wijnproeverijen") },
      { code: "restaurants", name: n("Restaurants", "Restaurants", "Restaurants", "Restaurantes", "Ristoranti", "Restaurants") },
      { code: "brewery-tours", name: n("Brewery tours", "Brauereiführungen", "Visites de brasseries", "Visitas a cervecerías", "Visite a birrifici", "Brouwerijtours") },
    ],
  },
  {
    code: "outdoor",
    name: n("Outdoor activities", "Outdoor-Aktivitäten", "Activités de plein air", "Actividades al aire libre", "Attività all'aperto", "Buitenactiviteiten"),
    children: [
      { code: "hiking", name: n("Hiking", "Wandern", "Randonnée", "Senderismo", "Escursionismo", "Wandelen") },
      { code: "climbing", name: n("Climbing", "Klettern", "Escalade", "Escalada", "Arrampicata", "Klimmen") },
      { code: "skiing", name: n("Skiing and snowboarding", "Ski und Snowboard", "Ski et snowboard", "Esquí y snowboard", "Sci e snowboard", "Skiën en snowboarden") },
      { code: "paragliding", name: n("Paragliding", "Gleitschirmfliegen", "Parapente", "Parapente", "Parapendio", "Paragliden") },
      { code: "safaris", name: n("Safaris and wildlife", "Safaris und Wildtiere", "Safaris et faune", "Safaris y fauna", "Safari e fauna", "Safari's en wildlife") },
    ],
  },
  {
    code: "water",
    name: n("Water activities", "Wasseraktivitäten", "Activités nautiques", "Actividades acuáticas", "Attività acquatiche", "Wateractiviteiten"),
    children: [
      { code: "boat-tours", name: n("Boat tours", "Bootstouren", "Balades en bateau", "Paseos en barco", "Giri in barca", "Boottochten") },
      { code: "snorkeling-diving", name: n("Snorkeling and diving", "Schnorcheln und Tauchen", "Plongée", "Esnórquel y buceo", "Snorkeling e immersioni", "Snorkelen en duiken") },
      { code: "kayaking", name: n("Kayaking and canoeing", "Kajak und Kanu", "Kayak et canoë", "Kayak y canoa", "Kayak e canoa", "Kajakken en kanoën") },
      { code: "surfing", name: n("Surfing", "Surfen", "Surf", "Surf", "Surf", "Surfen") },
      { code: "sailing", name: n("Sailing", "Segeln", "Voile", "Vela", "Vela", "Zeilen") },
    ],
  },
  {
    code: "culture",
    name: n("Culture and history", "Kultur und Geschichte", "Culture et histoire", "Cultura e historia", "Cultura e storia", "Cultuur en geschiedenis"),
    children: [
      { code: "historical-sites", name: n("Historical sites", "Historische Stätten", "Sites historiques", "Sitios históricos", "Siti storici", "Historische plekken") },
      { code: "art-galleries", name: n("Art galleries", "Kunstgalerien", "Galeries d'art", "Galerías de arte", "Gallerie d'arte", "Kunstgalerieën") },
      { code: "religious-sites", name: n("Religious sites", "Religiöse Stätten", "Sites religieux", "Lugares religiosos", "Luoghi religiosi", "Religieuze plekken") },
      { code: "workshops", name: n("Craft workshops", "Handwerkskurse", "Ateliers d'artisanat", "Talleres de artesanía", "Laboratori artigianali", "Ambachtsworkshops") },
    ],
  },
  {
    code: "shows-events",
    name: n("Shows and events", "Shows und Veranstaltungen", "Spectacles et événements", "Espectáculos y eventos", "Spettacoli ed eventi", "Shows en evenementen"),
    children: [
      { code: "concerts", name: n("Concerts", "Konzerte", "Concerts", "Conciertos", "Concerti", "Concerten") },
      { code: "theatre", name: n("Theatre and musicals", "Theater und Musicals", "Théâtre et comédies musicales", "Teatro y musicales", "Teatro e musical", "Theater en musicals") },
      { code: "sports-events", name: n("Sports events", "Sportveranstaltungen", "Événements sportifs", "Eventos deportivos", "Eventi sportivi", "Sportevenementen") },
      { code: "nightlife", name: n("Nightlife", "Nachtleben", "Vie nocturne", "Vida nocturna", "Vita notturna", "Nachtleven") },
    ],
  },
  {
    code: "wellness",
    name: n("Wellness", "Wellness", "Bien-être", "Bienestar", "Benessere", "Wellness"),
    children: [
      { code: "spas", name: n("Spas and thermal baths", "Spas und Thermen", "Spas et thermes", "Spas y termas", "Spa e terme", "Spa's en thermen") },
      { code: "yoga", name: n("Yoga and meditation", "Yoga und Meditation", "Yoga et méditation", "Yoga y meditación", "Yoga e meditazione", "Yoga en meditatie") },
    ],
  },
  {
    code: "transport",
    name: n("Transport", "Transport", "Transport", "Transporte", "Trasporti", "Vervoer"),
    children: [
      { code: "airport-transfers", name: n("Airport transfers", "Flughafentransfers", "Transferts aéroport", "Traslados al aeropuerto", "Trasferimenti aeroportuali", "Luchthaventransfers") },
      { code: "city-passes", name: n("City passes", "Städtepässe", "City pass", "Pases turísticos", "City pass", "Citypassen") },
      { code: "rentals", name: n("Vehicle rentals", "Fahrzeugvermietung", "Location de véhicules", "Alquiler de vehículos", "Noleggio veicoli", "Voertuigverhuur") },
    ],
  },
  {
    code: "family",
    name: n("Family and kids", "Familie und Kinder", "Famille et enfants", "Familia y niños", "Famiglia e bambini", "Gezin en kinderen"),
    children: [
      { code: "kids-activities", name: n("Activities for kids", "Aktivitäten für Kinder", "Activités pour enfants", "Actividades para niños", "Attività per bambini", "Activiteiten voor kinderen") },
      { code: "escape-rooms", name: n("Escape rooms", "Escape Rooms", "Escape games", "Salas de escape", "Escape room", "Escaperooms") },
    ],
  },
];
