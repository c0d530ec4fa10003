/** The shape the ECB publishes at https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml. */
export const ecbDaily = (days: { date: string; rates: Record<string, string> }[]) => `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
${days.map((day) => `\t\t<Cube time='${day.date}'>\n${Object.entries(day.rates).map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`).join("\n")}\n\t\t</Cube>`).join("\n")}
\t</Cube>
</gesmes:Envelope>`;

