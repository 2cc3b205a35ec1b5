/**
 * Internal to the SDK: what a device has reported and may still report. {@link
 * dev.fieldprof.client.ledger.PrivacyLedger} numbers reports and adds up their privacy loss per app
 * version; {@link dev.fieldprof.client.ledger.PrivacyBudget} refuses a report that would take the
 * user-level ε spent in the rolling period above the budget. Both fail closed: a report the ledger
 * cannot record never leaves the device.
 */
package dev.fieldprof.client.ledger;
