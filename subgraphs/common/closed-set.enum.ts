/** An enum of the graph whose values are a closed set of the service's rules, each named as the rules name it. */
export const closedSet = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((value) => [value, value])) as { [V in T]: V };
