import { describe, expect, it } from "vitest";
import type { QuestionSetup } from "../../../subgraphs/booking/engines/inventory/booking-setup.schema.js";
import {
  isQuestionStepComplete,
  participantId,
  questionGroups,
  questionId,
  validateAnswers,
  type QuestionContext,
  type QuestionGroups,
  type QuestionView,
} from "../../../subgraphs/booking/questions/question.rules.js";

type Questions = { customer: QuestionSetup[]; booking: QuestionSetup[]; participant: QuestionSetup[] };

const BOOKING = "7d4c2a8e-0000-4000-8000-000000000001";
const context: QuestionContext = { bookingId: BOOKING, participantCount: 2, language: "fr" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function single(question: Omit<QuestionSetup, "key" | "question">): Questions {
  return { customer: [{ key: "q", question: "Q?", ...question }], booking: [], participant: [] };
}

/** Validates one answer to the single customer question "q". */
function check(question: Omit<QuestionSetup, "key" | "question">, value: string | null) {
  const setup = single(question);
  const id = questionId(BOOKING, "customer/q");
  const result = validateAnswers(setup, context, [{ id, value }]);
  return { stored: result.answers[id], problems: result.problems };
}

/** 254 characters, the longest address accepted. */
const LONGEST_EMAIL = `${"a".repeat(60)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}.com`;

type Row = {
  name: string;
  question: Omit<QuestionSetup, "key" | "question">;
  valid: [string | null, string][];
  invalid: [string | null, string][];
};

const rows: Row[] = [
  {
    name: "TEXT",
    question: { dataType: "TEXT" },
    valid: [["Ada", "Ada"], ["  Lovelace  ", "Lovelace"], ["x".repeat(2000), "x".repeat(2000)]],
    invalid: [["", "minLength"], ["   ", "minLength"], ["\n\t", "minLength"], ["x".repeat(2001), "maxLength"], [null, "required"]],
  },
  {
    name: "TEXT ADDRESS",
    question: { dataType: "TEXT", dataFormat: "ADDRESS" },
    valid: [["1 rue de Rivoli, 75001 Paris", "1 rue de Rivoli, 75001 Paris"], [" 10 Downing St ", "10 Downing St"]],
    invalid: [["", "minLength"], ["  ", "minLength"], ["a".repeat(2001), "maxLength"], [null, "required"]],
  },
  {
    name: "LONG_TEXT",
    question: { dataType: "LONG_TEXT" },
    valid: [["Vegetarian meals, please.", "Vegetarian meals, please."], ["line 1\nline 2", "line 1\nline 2"]],
    invalid: [["", "minLength"], [" \n ", "minLength"], ["y".repeat(2001), "maxLength"], [null, "required"]],
  },
  {
    name: "TEXT PHONE_NUMBER",
    question: { dataType: "TEXT", dataFormat: "PHONE_NUMBER" },
    valid: [["+33612345678", "+33612345678"], ["+14155552671", "+14155552671"], [" +442071838750 ", "+442071838750"]],
    invalid: [
      ["0612345678", "e164PhoneNumber"],
      ["+3361234", "e164PhoneNumber"],
      // Spaces are not part of E.164, even though the digits form a valid number.
      ["+1 415 555 2671", "e164PhoneNumber"],
      // The national trunk 0 kept after the country code is not the E.164 form.
      ["+330612345678", "e164PhoneNumber"],
      ["+99912345678", "e164PhoneNumber"],
      ["0033612345678", "e164PhoneNumber"],
      ["", "e164PhoneNumber"],
      [null, "required"],
    ],
  },
  {
    name: "TEXT EMAIL_ADDRESS",
    question: { dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" },
    valid: [
      ["ada@example.com", "ada@example.com"],
      [" first.last+tag@mail.example.co.uk ", "first.last+tag@mail.example.co.uk"],
      [LONGEST_EMAIL, LONGEST_EMAIL],
    ],
    invalid: [
      ["ada@localhost", "emailAddress"],
      ["ada.example.com", "emailAddress"],
      ["ada @example.com", "emailAddress"],
      ["@example.com", "emailAddress"],
      ["ada@example.", "emailAddress"],
      ["ada..b@example.com", "emailAddress"],
      // 255 characters: one over the limit of 254.
      [`${"a".repeat(60)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`, "emailAddress"],
      [null, "required"],
    ],
  },
  {
    name: "INT",
    question: { dataType: "INT" },
    valid: [["42", "42"], ["-7", "-7"], ["007", "7"], ["9007199254740991", "9007199254740991"], ["-9007199254740991", "-9007199254740991"]],
    invalid: [["4.2", "integer"], ["1e3", "integer"], ["abc", "integer"], ["", "integer"], ["9007199254740992", "range"], [null, "required"]],
  },
  {
    name: "DOUBLE",
    question: { dataType: "DOUBLE" },
    valid: [["3.5", "3.5"], ["-1.2e3", "-1200"], [".5", "0.5"], ["+2", "2"], [null, "null"], ["null", "null"]],
    invalid: [["", "double"], ["abc", "double"], ["1,5", "double"], ["Infinity", "double"], ["NaN", "double"], ["1e300", "range"], ["-9007199254740992", "range"]],
  },
  {
    name: "BOOLEAN",
    question: { dataType: "BOOLEAN" },
    valid: [["true", "true"], ["FALSE", "false"], ["1", "true"], ["0", "false"], ["Yes", "true"], ["no", "false"]],
    invalid: [["", "boolean"], ["maybe", "boolean"], ["2", "boolean"], ["oui", "boolean"], [null, "required"]],
  },
  {
    name: "CHECKBOX_TOGGLE",
    question: { dataType: "CHECKBOX_TOGGLE" },
    valid: [["true", "true"], ["no", "false"]],
    invalid: [["", "boolean"], ["on", "boolean"], ["checked", "boolean"], ["-1", "boolean"], [null, "required"]],
  },
  {
    name: "ACCEPT",
    question: { dataType: "ACCEPT" },
    // Declining is still an answer: the spec asks only for a boolean.
    valid: [["yes", "true"], ["false", "false"]],
    invalid: [["", "boolean"], ["accepted", "boolean"], ["y", "boolean"], ["truee", "boolean"], [null, "required"]],
  },
  {
    name: "DATE",
    question: { dataType: "DATE" },
    valid: [["2026-07-14", "2026-07-14"], ["2024-02-29", "2024-02-29"]],
    invalid: [["2026-02-30", "isoDate"], ["2025-02-29", "isoDate"], ["2026-13-01", "isoDate"], ["14/07/2026", "isoDate"], ["2026-7-14", "isoDate"], ["2026-07-14T10:00", "isoDate"], [null, "required"]],
  },
  {
    name: "TIME",
    question: { dataType: "TIME" },
    valid: [["09:30:00", "09:30:00"], ["23:59:59.123456789", "23:59:59.123456789"], [null, "null"]],
    invalid: [["24:00:00", "time"], ["9:30:00", "time"], ["09:30", "time"], ["09:60:00", "time"], ["09:30:00.", "time"], ["09:30:00.1234567890", "time"], ["", "time"]],
  },
  {
    name: "DATE_AND_TIME",
    question: { dataType: "DATE_AND_TIME" },
    valid: [["2026-07-14T09:30:00Z", "2026-07-14T09:30:00Z"], ["2026-07-14T09:30+02:00", "2026-07-14T09:30+02:00"], ["2024-02-29T23:59:59.5", "2024-02-29T23:59:59.5"]],
    invalid: [["2026-07-14", "isoDateTime"], ["2026-02-30T10:00:00Z", "isoDateTime"], ["2026-07-14 09:30:00", "isoDateTime"], ["2026-07-14T25:00Z", "isoDateTime"], ["2026-07-14T09:30:00+2", "isoDateTime"], [null, "required"]],
  },
  {
    name: "OPTIONS",
    question: { dataType: "OPTIONS", choices: [{ key: "vegan", label: "Vegan" }, { key: "meat", label: "Meat" }] },
    valid: [["vegan", "vegan"], [" meat ", "meat"]],
    invalid: [["Vegan", "optionChoice"], ["fish", "optionChoice"], ["", "optionChoice"], ["vegan,meat", "optionChoice"], [null, "required"]],
  },
];

describe("answer values by dataType and dataFormat", () => {
  for (const row of rows) {
    describe(row.name, () => {
      it.each(row.valid)("accepts %j, stored as %j", (value, stored) => {
        expect(check(row.question, value)).toEqual({ stored, problems: [] });
      });
      it.each(row.invalid)("refuses %j with rule %s", (value, rule) => {
        const { stored, problems } = check(row.question, value);
        expect(stored).toBeUndefined();
        expect(problems).toEqual([{ field: "answers[0].value", rule, message: expect.stringMatching(/^Expected /) }]);
      });
    });
  }

  it("names the offered choices in the OPTIONS message", () => {
    const { problems } = check({ dataType: "OPTIONS", choices: [{ key: "vegan", label: "Vegan" }, { key: "meat", label: "Meat" }] }, "fish");
    expect(problems[0].message).toContain("vegan, meat");
  });
});

describe("question ids", () => {
  it("are UUIDs, stable across calls and distinct per booking and path", () => {
    const id = questionId(BOOKING, "customer/email");
    expect(id).toMatch(UUID);
    expect(questionId(BOOKING, "customer/email")).toBe(id);
    expect(questionId("another-booking", "customer/email")).not.toBe(id);
    expect(questionId(BOOKING, "booking/email")).not.toBe(id);
    expect(participantId(BOOKING, 0)).toMatch(UUID);
    expect(participantId(BOOKING, 0)).not.toBe(participantId(BOOKING, 1));
    expect(participantId(BOOKING, 0)).not.toBe(questionId(BOOKING, "participant/0"));
  });

  it("are the same in two questionGroups calls and differ between bookings", () => {
    const setup: Questions = { customer: [{ key: "email", question: "E-mail", dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" }], booking: [], participant: [] };
    const first = questionGroups(setup, context, {});
    expect(questionGroups(setup, context, {})).toEqual(first);
    const other = questionGroups(setup, { ...context, bookingId: "another-booking" }, {});
    expect(other.customer[0].id).not.toBe(first.customer[0].id);
  });
});

describe("questionGroups", () => {
  const setup: Questions = {
    customer: [{ key: "email", question: { en: "E-mail", fr: "Courriel" }, dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" }],
    booking: [{ key: "diet", question: { en: "Diet", de: "Ernährung" }, dataType: "OPTIONS", choices: [{ key: "vegan", label: { en: "Vegan", fr: "Végétalien" } }, { key: "meat", label: "Meat" }] }],
    participant: [
      { key: "name", question: "Name", dataType: "TEXT" },
      { key: "birth", question: "Birth date", dataType: "DATE" },
    ],
  };

  it("localizes questions and choices, falling back to English", () => {
    const groups = questionGroups(setup, context, {});
    expect(groups.customer).toEqual([
      { id: questionId(BOOKING, "customer/email"), question: "Courriel", dataType: "TEXT", dataFormat: "EMAIL_ADDRESS", followUpQuestions: [], level: "0" },
    ]);
    expect(groups.booking[0]).toMatchObject({ question: "Diet", questionChoices: { vegan: "Végétalien", meat: "Meat" } });
    expect(groups.booking[0]).not.toHaveProperty("value");
  });

  it("repeats participant questions per participant with distinct ids", () => {
    const groups = questionGroups(setup, { ...context, participantCount: 3 }, {});
    expect(groups.participants.map((p) => p.id)).toEqual([0, 1, 2].map((i) => participantId(BOOKING, i)));
    expect(groups.participants.map((p) => p.questions.map((q) => q.question))).toEqual([
      ["Name", "Birth date"],
      ["Name", "Birth date"],
      ["Name", "Birth date"],
    ]);
    const ids = groups.participants.flatMap((p) => p.questions.map((q) => q.id));
    expect(new Set(ids).size).toBe(6);
    expect(groups.participants[2].questions[0].id).toBe(questionId(BOOKING, "participant/2/name"));
  });

  it("shows stored values and accepts each participant's answers separately", () => {
    const name0 = questionId(BOOKING, "participant/0/name");
    const name1 = questionId(BOOKING, "participant/1/name");
    const result = validateAnswers(setup, context, [
      { id: name0, value: "Ada" },
      { id: name1, value: "Grace" },
    ]);
    expect(result).toEqual({ answers: { [name0]: "Ada", [name1]: "Grace" }, problems: [] });
    const groups = questionGroups(setup, context, result.answers);
    expect(groups.participants.map((p) => p.questions[0].value)).toEqual(["Ada", "Grace"]);
    expect(groups.participants[0].questions[1]).not.toHaveProperty("value");
  });

  it("refuses participant question ids beyond the participant count", () => {
    const beyond = questionId(BOOKING, "participant/2/name");
    const result = validateAnswers(setup, context, [{ id: beyond, value: "Ada" }]);
    expect(result.answers).toEqual({});
    expect(result.problems).toEqual([{ field: "answers[0].id", rule: "unknownQuestion", message: expect.any(String) }]);
  });
});

describe("follow-up questions", () => {
  // hasAllergy (BOOLEAN) -> "yes": allergy (OPTIONS) -> "nuts": severity (INT) -> "3": epipen (ACCEPT)
  const setup: Questions = {
    customer: [],
    booking: [
      {
        key: "hasAllergy",
        question: "Any allergy?",
        dataType: "BOOLEAN",
        followUps: [
          {
            equals: "yes",
            questions: [
              {
                key: "allergy",
                question: "Which one?",
                dataType: "OPTIONS",
                choices: [{ key: "nuts", label: "Nuts" }, { key: "gluten", label: "Gluten" }],
                followUps: [
                  {
                    equals: "nuts",
                    questions: [
                      {
                        key: "severity",
                        question: "Severity 1-5?",
                        dataType: "INT",
                        followUps: [{ equals: "03", questions: [{ key: "epipen", question: "Carrying an EpiPen?", dataType: "ACCEPT" }] }],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
    participant: [],
  };
  const ctx: QuestionContext = { ...context, participantCount: 0 };
  const hasAllergy = questionId(BOOKING, "booking/hasAllergy");
  const allergy = questionId(BOOKING, "booking/hasAllergy/allergy");
  const severity = questionId(BOOKING, "booking/hasAllergy/allergy/severity");
  const epipen = questionId(BOOKING, "booking/hasAllergy/allergy/severity/epipen");

  const shownIds = (groups: QuestionGroups): string[] => {
    const walk = (q: QuestionView): string[] => [q.id, ...q.followUpQuestions.flatMap(walk)];
    return groups.booking.flatMap(walk);
  };

  it("are hidden until the parent's answer satisfies the condition, level by level", () => {
    expect(shownIds(questionGroups(setup, ctx, {}))).toEqual([hasAllergy]);
    expect(shownIds(questionGroups(setup, ctx, { [hasAllergy]: "false" }))).toEqual([hasAllergy]);
    expect(shownIds(questionGroups(setup, ctx, { [hasAllergy]: "true" }))).toEqual([hasAllergy, allergy]);
    expect(shownIds(questionGroups(setup, ctx, { [hasAllergy]: "true", [allergy]: "gluten" }))).toEqual([hasAllergy, allergy]);
    expect(shownIds(questionGroups(setup, ctx, { [hasAllergy]: "true", [allergy]: "nuts" }))).toEqual([hasAllergy, allergy, severity]);
    expect(shownIds(questionGroups(setup, ctx, { [hasAllergy]: "true", [allergy]: "nuts", [severity]: "3" }))).toEqual([hasAllergy, allergy, severity, epipen]);
  });

  it("describe their parent, level and normalized condition", () => {
    const groups = questionGroups(setup, ctx, { [hasAllergy]: "true", [allergy]: "nuts", [severity]: "3" });
    const level1 = groups.booking[0].followUpQuestions[0];
    const level2 = level1.followUpQuestions[0];
    const level3 = level2.followUpQuestions[0];
    expect(groups.booking[0]).toMatchObject({ level: "0", value: "true" });
    expect(groups.booking[0]).not.toHaveProperty("parentId");
    expect(groups.booking[0]).not.toHaveProperty("requirementType");
    expect(level1).toMatchObject({ id: allergy, parentId: hasAllergy, level: "1", requirementType: "CONDITIONAL", conditions: [{ op: "equals", value: "true" }] });
    expect(level2).toMatchObject({ id: severity, parentId: allergy, level: "2", conditions: [{ op: "equals", value: "nuts" }] });
    expect(level3).toMatchObject({ id: epipen, parentId: severity, level: "3", conditions: [{ op: "equals", value: "3" }], followUpQuestions: [] });
    expect(level3).not.toHaveProperty("value");
  });

  it("may be answered in the same call that reveals them", () => {
    const result = validateAnswers(setup, ctx, [
      { id: epipen, value: "no" },
      { id: hasAllergy, value: "YES" },
      { id: allergy, value: "nuts" },
      { id: severity, value: "3" },
    ]);
    expect(result).toEqual({ answers: { [hasAllergy]: "true", [allergy]: "nuts", [severity]: "3", [epipen]: "false" }, problems: [] });
    expect(isQuestionStepComplete(questionGroups(setup, ctx, result.answers))).toBe(true);
  });

  it("drop silently, with their descendants, once the parent's answer no longer satisfies the condition", () => {
    const full = [
      { id: hasAllergy, value: "true" },
      { id: allergy, value: "nuts" },
      { id: severity, value: "3" },
      { id: epipen, value: "true" },
    ];
    const changedMiddle = validateAnswers(setup, ctx, full.map((a) => (a.id === allergy ? { ...a, value: "gluten" } : a)));
    expect(changedMiddle).toEqual({ answers: { [hasAllergy]: "true", [allergy]: "gluten" }, problems: [] });
    expect(shownIds(questionGroups(setup, ctx, changedMiddle.answers))).toEqual([hasAllergy, allergy]);

    const changedTop = validateAnswers(setup, ctx, full.map((a) => (a.id === hasAllergy ? { ...a, value: "no" } : a)));
    expect(changedTop).toEqual({ answers: { [hasAllergy]: "false" }, problems: [] });
    expect(shownIds(questionGroups(setup, ctx, changedTop.answers))).toEqual([hasAllergy]);
  });

  it("are dropped without a problem when the parent is not answered, and not validated then", () => {
    const result = validateAnswers(setup, ctx, [{ id: severity, value: "not a number" }]);
    expect(result).toEqual({ answers: {}, problems: [] });
  });

  it("stay hidden under an invalid parent answer, which is the only problem reported", () => {
    const result = validateAnswers(setup, ctx, [
      { id: hasAllergy, value: "true" },
      { id: allergy, value: "peanuts" },
      { id: severity, value: "3" },
    ]);
    expect(result.answers).toEqual({ [hasAllergy]: "true" });
    expect(result.problems).toEqual([{ field: "answers[1].value", rule: "optionChoice", message: expect.any(String) }]);
  });

  it("count towards completeness only while active", () => {
    const step = (answers: Record<string, string>): boolean => isQuestionStepComplete(questionGroups(setup, ctx, answers));
    expect(step({})).toBe(false);
    expect(step({ [hasAllergy]: "false" })).toBe(true);
    expect(step({ [hasAllergy]: "true" })).toBe(false);
    expect(step({ [hasAllergy]: "true", [allergy]: "gluten" })).toBe(true);
    expect(step({ [hasAllergy]: "true", [allergy]: "nuts" })).toBe(false);
    expect(step({ [hasAllergy]: "true", [allergy]: "nuts", [severity]: "4" })).toBe(true);
    expect(step({ [hasAllergy]: "true", [allergy]: "nuts", [severity]: "3" })).toBe(false);
    expect(step({ [hasAllergy]: "true", [allergy]: "nuts", [severity]: "3", [epipen]: "false" })).toBe(true);
  });
});

describe("isQuestionStepComplete", () => {
  const setup: Questions = {
    customer: [{ key: "phone", question: "Phone", dataType: "TEXT", dataFormat: "PHONE_NUMBER" }],
    booking: [{ key: "pickupTime", question: "Pickup time", dataType: "TIME" }],
    participant: [{ key: "name", question: "Name", dataType: "TEXT" }],
  };
  const phone = questionId(BOOKING, "customer/phone");
  const pickup = questionId(BOOKING, "booking/pickupTime");
  const name0 = questionId(BOOKING, "participant/0/name");
  const name1 = questionId(BOOKING, "participant/1/name");

  it("is false until every question of every group and participant is answered", () => {
    const answers: Record<string, string> = {};
    for (const [id, value] of [[phone, "+33612345678"], [pickup, "null"], [name0, "Ada"]] as const) {
      answers[id] = value;
      expect(isQuestionStepComplete(questionGroups(setup, context, answers))).toBe(false);
    }
    answers[name1] = "Grace";
    expect(isQuestionStepComplete(questionGroups(setup, context, answers))).toBe(true);
  });

  it("counts a null TIME answer as answered", () => {
    const result = validateAnswers(setup, context, [
      { id: phone, value: "+33612345678" },
      { id: pickup, value: null },
      { id: name0, value: "Ada" },
      { id: name1, value: "Grace" },
    ]);
    expect(result.problems).toEqual([]);
    expect(result.answers[pickup]).toBe("null");
    const groups = questionGroups(setup, context, result.answers);
    expect(groups.booking[0].value).toBe("null");
    expect(isQuestionStepComplete(groups)).toBe(true);
  });

  it("is true when there is no question at all", () => {
    expect(isQuestionStepComplete(questionGroups({ customer: [], booking: [], participant: [] }, context, {}))).toBe(true);
  });
});

describe("validateAnswers list problems", () => {
  const setup: Questions = {
    customer: [
      { key: "email", question: "E-mail", dataType: "TEXT", dataFormat: "EMAIL_ADDRESS" },
      { key: "age", question: "Age", dataType: "INT" },
    ],
    booking: [],
    participant: [],
  };
  const email = questionId(BOOKING, "customer/email");
  const age = questionId(BOOKING, "customer/age");

  it("reports unknown ids, including another booking's, and keeps the valid answers", () => {
    const result = validateAnswers(setup, context, [
      { id: "not-a-question", value: "x" },
      { id: email, value: "ada@example.com" },
      { id: questionId("another-booking", "customer/age"), value: "30" },
    ]);
    expect(result.answers).toEqual({ [email]: "ada@example.com" });
    expect(result.problems).toEqual([
      { field: "answers[0].id", rule: "unknownQuestion", message: expect.stringMatching(/^Expected /) },
      { field: "answers[2].id", rule: "unknownQuestion", message: expect.stringMatching(/^Expected /) },
    ]);
  });

  it("reports a second answer to the same question and keeps the first", () => {
    const result = validateAnswers(setup, context, [
      { id: age, value: "30" },
      { id: email, value: "ada@example.com" },
      { id: age, value: "31" },
    ]);
    expect(result.answers).toEqual({ [age]: "30", [email]: "ada@example.com" });
    expect(result.problems).toEqual([{ field: "answers[2].id", rule: "duplicateAnswer", message: expect.stringContaining("answers[0]") }]);
  });

  it("lists problems in the order of the submitted answers", () => {
    const result = validateAnswers(setup, context, [
      { id: age, value: "thirty" },
      { id: "unknown", value: "x" },
      { id: email, value: "ada" },
    ]);
    expect(result.problems.map((p) => [p.field, p.rule])).toEqual([
      ["answers[0].value", "integer"],
      ["answers[1].id", "unknownQuestion"],
      ["answers[2].value", "emailAddress"],
    ]);
  });

  it("accepts the values it returned when they are sent back", () => {
    const first = validateAnswers(setup, context, [
      { id: email, value: " ada@example.com " },
      { id: age, value: "030" },
    ]);
    const again = validateAnswers(setup, context, Object.entries(first.answers).map(([id, value]) => ({ id, value })));
    expect(again).toEqual({ answers: first.answers, problems: [] });
    expect(first.answers).toEqual({ [email]: "ada@example.com", [age]: "30" });
  });
});

describe("a supplier's questions: per option, per ticket, and values it needs", () => {
  const setup: Questions = {
    customer: [],
    booking: [
      { key: "always", question: "Asked of every booking", dataType: "TEXT" },
      { key: "privateOnly", question: "Asked of the private tour", dataType: "TEXT", shownWhen: { option: "option", equals: "private" } },
    ],
    participant: [
      { key: "birth", question: "Date of birth", dataType: "DATE", units: ["child"] },
      { key: "weight", question: "Weight", dataType: "DOUBLE", nullAllowed: false },
    ],
  };
  const onGroup: QuestionContext = { bookingId: BOOKING, participantCount: 3, language: "en", selections: { option: "group" }, ticketUnits: ["adult", "child", undefined] };

  it("asks an option's questions only when it is chosen, and a unit's only of the holders of its tickets", () => {
    const groups = questionGroups(setup, onGroup, {});
    expect(groups.booking.map((q) => q.question)).toEqual(["Asked of every booking"]);
    expect(groups.participants.map((p) => p.questions.map((q) => q.question))).toEqual([["Weight"], ["Date of birth", "Weight"], ["Weight"]]);
    expect(questionGroups(setup, { ...onGroup, selections: { option: "private" } }, {}).booking).toHaveLength(2);
    // An answer to a question not asked of this booking is refused as unknown.
    const hidden = questionId(BOOKING, "booking/privateOnly");
    expect(validateAnswers(setup, onGroup, [{ id: hidden, value: "x" }]).problems).toEqual([expect.objectContaining({ rule: "unknownQuestion" })]);
    const adultsBirth = questionId(BOOKING, "participant/0/birth");
    expect(validateAnswers(setup, onGroup, [{ id: adultsBirth, value: "2016-01-01" }]).problems).toEqual([expect.objectContaining({ rule: "unknownQuestion" })]);
  });

  it("refuses null for a number or time the supplier needs, and accepts it otherwise", () => {
    const weight = questionId(BOOKING, "participant/0/weight");
    expect(validateAnswers(setup, onGroup, [{ id: weight, value: null }]).problems).toEqual([expect.objectContaining({ rule: "required", message: expect.stringContaining("supplier needs a value") })]);
    const open: Questions = { ...setup, participant: [{ key: "weight", question: "Weight", dataType: "DOUBLE" }] };
    expect(validateAnswers(open, onGroup, [{ id: weight, value: null }]).answers[weight]).toBe("null");
  });
});
