import type { Option, Product, Unit } from "@octocloud/types";
import { z } from "zod";

/**
 * `octo/questions`: the questions a supplier asks per product, option and unit, and the answers a
 * reseller sends back with the booking and with each of its unit items. The OCTO specification
 * defines them (docs.octo.travel, "Questions"), and `@octocloud/types` 1.x typed them (`Question`,
 * `QuestionAnswer`); its 2.x line names the capability but dropped these fields, so the schema of
 * what we read and the types of what we send are ours, written from the same definition.
 */

export const OCTO_INPUT_TYPES = ["date", "datetime-local", "email", "file", "number", "tel", "text", "time", "url", "select", "textarea"] as const;
export type OctoInputType = (typeof OCTO_INPUT_TYPES)[number];

export const zOctoQuestion = z.object({
  id: z.string().min(1),
  title: z.string(),
  shortDescription: z.string().nullable().optional(),
  required: z.boolean(),
  inputType: z.enum(OCTO_INPUT_TYPES),
  selectOptions: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
  coverImageUrl: z.string().nullable().optional(),
});
export type OctoQuestion = z.infer<typeof zOctoQuestion>;

/** What is sent for one question: its id and the answer, as the input type writes it. */
export interface OctoQuestionAnswer {
  questionId: string;
  value: string | null;
}

const asked = z.object({ questions: z.array(zOctoQuestion).optional() });

/** The questions of a product (`GET /products`), where a supplier offering `octo/questions` puts them. */
export const zProductQuestions = asked.extend({ options: z.array(asked.extend({ units: z.array(asked) })) });

type Asked = { questions?: OctoQuestion[] };
export type UnitWithQuestions = Unit & Asked;
export type OptionWithQuestions = Omit<Option, "units"> & Asked & { units: UnitWithQuestions[] };
/** A product with the questions the OCTO specification puts on it, its options and its units. */
export type ProductWithQuestions = Omit<Product, "options"> & Asked & { options: OptionWithQuestions[] };

/** The most required questions a product may ask for the flow to sell it: the bound of a booking setup's question lists. */
export const MAX_REQUIRED_QUESTIONS = 30;

/** The bounds of a booking setup's questions (booking-setup.schema.ts), which a supplier's are held to as well. */
export const MAX_CHOICES = 100;
export const MAX_QUESTION_TEXT = 500;

/**
 * A question whose answer the flow cannot take: a file upload, a choice with nothing to choose,
 * or one with more choices than a booking setup may offer (a supplier's list would otherwise be
 * shown in full on every read of every booking of the product).
 */
const unanswerable = (question: OctoQuestion): boolean =>
  question.inputType === "file" || (question.inputType === "select" && (!question.selectOptions?.length || question.selectOptions.length > MAX_CHOICES));

/**
 * Whether the flow can ask everything the supplier requires before confirming. The flow asks only
 * required questions (spec 2: every question it shows must be answered), so optional ones never
 * stand in the way.
 */
export function askable(product: ProductWithQuestions): boolean {
  const required = questionsOfProduct(product).filter((question) => question.required);
  return required.length <= MAX_REQUIRED_QUESTIONS && !required.some(unanswerable);
}

/** Every question of a product, wherever the supplier asks it. */
export function questionsOfProduct(product: ProductWithQuestions): OctoQuestion[] {
  return [...(product.questions ?? []), ...product.options.flatMap((option) => [...(option.questions ?? []), ...option.units.flatMap((unit) => unit.questions ?? [])])];
}
