import { describe, expect, it } from "vitest";
import { periodsDocumentOf, periodsDocumentOfAnswer, periodsInputOf, typedPeriodsOf } from "../../../subgraphs/catalogue/product/availability-periods.type.js";

const document = {
  weeklyPeriods: [
    { description: "Summer", startDate: "2027-06-01", endDate: "2027-09-30", monday: { open: true, hours: null }, tuesday: { open: true, hours: [{ start: "08:00", end: "14:00" }] }, sunday: { open: false, hours: null }, closedDayList: ["2027-08-01"] },
    { startDate: "2027-10-01" },
  ],
  spontaneousPeriod: { description: "New year", eventDateList: ["2027-12-31T22:00"] },
};

describe("a product's periods in spec 1's document and in the graph's types", () => {
  it("answer the kept document typed, with every weekday, and write it back as the document", () => {
    const typed = typedPeriodsOf(document)!;
    expect(typed.weeklyPeriods[1]).toEqual({ description: null, startDate: "2027-10-01", endDate: null, closedDays: [], monday: null, tuesday: null, wednesday: null, thursday: null, friday: null, saturday: null, sunday: null });
    expect(typed.spontaneousPeriod).toEqual({ description: "New year", eventStarts: ["2027-12-31T22:00"] });
    expect(periodsDocumentOfAnswer(typed)).toEqual(document);
    expect(typedPeriodsOf(null)).toBeNull();
    expect(periodsDocumentOfAnswer(typedPeriodsOf({}))).toEqual({});
  });

  it("take the typed input as the document, keeping what was given and only that", () => {
    const input = periodsInputOf(document)!;
    expect(input.weeklyPeriods![0]).toMatchObject({ closedDays: ["2027-08-01"], monday: { open: true, hours: null } });
    expect(input.spontaneousPeriod).toEqual({ description: "New year", eventStarts: ["2027-12-31T22:00"] });
    expect(periodsDocumentOf(input)).toEqual(document);
    expect(periodsDocumentOf({ weeklyPeriods: [{ startDate: "2027-01-01", endDate: undefined }] })).toEqual({ weeklyPeriods: [{ startDate: "2027-01-01" }] });
    expect(periodsDocumentOf(null)).toBeNull();
  });
});
