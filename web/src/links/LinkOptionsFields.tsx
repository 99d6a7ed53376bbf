import {
  ActionIcon,
  Button,
  Collapse,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  MAX_CLICK_LIMIT,
  MAX_TAGS_PER_LINK,
  MAX_TARGETING_RULES,
  TARGETING_CONDITIONS,
  TARGETING_DEVICES,
  type TargetingCondition,
} from '@sniplink/contracts/links/controls';
import { IconChevronDown, IconChevronUp, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { PasswordField } from '../accounts/PasswordField';
import { linkTagsQueryOptions } from './controlsApi';
import {
  type LinkFormValues,
  newRule,
  normalizedTags,
  optionsSummary,
  type RuleConditionValues,
  rowKey,
  targetOf,
} from './linkForm';
import { typedUrlProblem } from './typedUrl';
import { hasUtm, type UtmKey, utmKeys } from './utm';

const ExpiryPicker = lazy(() => import('./ExpiryPicker'));

type LinkForm = UseFormReturnType<LinkFormValues>;

interface LinkOptionsProps {
  form: LinkForm;
  /** The form's id prefix, so that the create form and an edit dialog open at once keep distinct ids. */
  idPrefix: string;
  opened: boolean;
  onToggle(): void;
  /** Editing a link that has a password: the form offers to change or remove it, never shows it. */
  hasPassword?: boolean;
}

/**
 * The link's campaign parameters and controls, folded under "More options" so that shortening a URL stays
 * one field and one button. Everything here ends up in the same create or edit call.
 */
export function LinkOptions({ form, idPrefix, opened, onToggle, hasPassword = false }: LinkOptionsProps) {
  const panelId = `${idPrefix}-more-options`;
  const summary = opened ? '' : optionsSummary(form.values);
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={onToggle}
          aria-expanded={opened}
          aria-controls={panelId}
          rightSection={opened ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
        >
          More options
        </Button>
        {summary && (
          <Text size="sm" c="dimmed">
            {summary}
          </Text>
        )}
      </Group>
      <Collapse expanded={opened} id={panelId}>
        {opened && (
          <Stack gap="md" pt="xs">
            <UtmFields form={form} />
            <AccessFields form={form} hasPassword={hasPassword} />
            <TargetingFields form={form} />
            <TagsField form={form} opened={opened} />
          </Stack>
        )}
      </Collapse>
    </Stack>
  );
}

const utmLabels: Record<UtmKey, { label: string; placeholder: string }> = {
  source: { label: 'UTM source', placeholder: 'newsletter' },
  medium: { label: 'UTM medium', placeholder: 'email' },
  campaign: { label: 'UTM campaign', placeholder: 'spring_sale' },
  term: { label: 'UTM term', placeholder: 'running shoes' },
  content: { label: 'UTM content', placeholder: 'header-link' },
};

/** The five campaign parameters and the address they make, as it will be saved. */
function UtmFields({ form }: { form: LinkForm }) {
  const { originalUrl, utm } = form.values;
  const canPreview = hasUtm(utm) && originalUrl.trim() !== '' && typedUrlProblem(originalUrl) === null;
  return (
    <Fieldset legend="Campaign parameters (UTM)" variant="filled">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {utmKeys.map((key) => (
          <TextInput
            key={key}
            label={utmLabels[key].label}
            placeholder={utmLabels[key].placeholder}
            autoComplete="off"
            {...form.getInputProps(`utm.${key}`)}
          />
        ))}
      </SimpleGrid>
      <Text size="sm" mt="sm" c="dimmed" aria-live="polite" style={{ wordBreak: 'break-all' }}>
        {canPreview ? (
          <>
            Visitors go to:{' '}
            <Text span c="var(--mantine-color-text)">
              {targetOf(form.values)}
            </Text>
          </>
        ) : (
          'Filled parameters are added to the long URL; a parameter it already has is replaced.'
        )}
      </Text>
    </Fieldset>
  );
}

/** Password, expiry, click limit, fallback and pause: who may follow the link, and until when. */
function AccessFields({ form, hasPassword }: { form: LinkForm; hasPassword: boolean }) {
  return (
    <Fieldset legend="Access" variant="filled">
      <Stack gap="sm">
        <PasswordChoice form={form} hasPassword={hasPassword} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Suspense fallback={<TextInput label="Expires" placeholder="Never" disabled />}>
            <ExpiryPicker
              value={form.values.expiresAt}
              onChange={(value) => form.setFieldValue('expiresAt', value)}
              error={form.errors.expiresAt}
            />
          </Suspense>
          <NumberInput
            label="Click limit"
            description="The link expires after this many clicks"
            placeholder="No limit"
            min={1}
            max={MAX_CLICK_LIMIT}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            {...form.getInputProps('maxClicks')}
          />
        </SimpleGrid>
        <TextInput
          label="Fallback URL"
          description="Where visitors go once the link has expired, instead of a page saying so"
          placeholder="https://example.com/offer-ended"
          type="url"
          inputMode="url"
          {...form.getInputProps('fallbackUrl')}
        />
        <Switch
          label="Pause link"
          description="Visitors see a page saying the link is paused; no click is counted"
          {...form.getInputProps('paused', { type: 'checkbox' })}
        />
      </Stack>
    </Fieldset>
  );
}

/**
 * A new password, or for a link that has one: "Password set", with a change or a removal. The stored
 * password never comes back from the server, so it is never shown.
 */
function PasswordChoice({ form, hasPassword }: { form: LinkForm; hasPassword: boolean }) {
  const action = form.values.passwordAction;
  const input = (label: string) => (
    <PasswordField
      label={label}
      description="Visitors must enter it before they are sent on"
      autoComplete="new-password"
      {...form.getInputProps('password')}
    />
  );
  if (!hasPassword) return input('Password (optional)');
  const choose = (next: typeof action) => {
    form.setFieldValue('passwordAction', next);
    form.setFieldValue('password', '');
  };
  return (
    <Stack gap={4}>
      {action === 'change' && input('New password')}
      <Group gap="sm">
        {action === 'keep' && <Text size="sm">Password set</Text>}
        {action === 'remove' && <Text size="sm">The password is removed when you save</Text>}
        {action === 'keep' ? (
          <>
            <Button size="compact-sm" variant="default" onClick={() => choose('change')}>
              Change password
            </Button>
            <Button size="compact-sm" variant="subtle" color="red" onClick={() => choose('remove')}>
              Remove password
            </Button>
          </>
        ) : (
          <Button size="compact-sm" variant="subtle" onClick={() => choose('keep')}>
            Keep the current password
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** Up to ten tags, with the user's own tags offered as they type; shown as they will be stored. */
function TagsField({ form, opened }: { form: LinkForm; opened: boolean }) {
  const tags = useQuery({ ...linkTagsQueryOptions(), enabled: opened });
  return (
    <TagsInput
      label="Tags"
      description={`Up to ${MAX_TAGS_PER_LINK}: letters, digits, - and _`}
      placeholder="Type a tag and press Enter"
      data={(tags.data ?? []).map((count) => count.tag)}
      maxTags={MAX_TAGS_PER_LINK}
      splitChars={[',', ' ']}
      clearable
      clearButtonProps={{ 'aria-label': 'Remove all tags' }}
      value={form.values.tags}
      onChange={(next) => form.setFieldValue('tags', normalizedTags(next))}
      error={form.errors.tags}
    />
  );
}

const conditionLabels: Record<TargetingCondition, string> = {
  country: 'Country',
  device: 'Device',
  language: 'Language',
};

const deviceLabels: Record<(typeof TARGETING_DEVICES)[number], string> = {
  ios: 'iOS (iPhone, iPad)',
  android: 'Android',
  mobile: 'Mobile phone (iOS and Android phones)',
  desktop: 'Desktop',
};

/**
 * Rules that send some visitors elsewhere: each a list of conditions (all must hold) and a URL; the first
 * rule a visitor matches wins, and a visitor no rule matches goes to the long URL.
 */
function TargetingFields({ form }: { form: LinkForm }) {
  const rules = form.values.rules;
  return (
    <Fieldset legend="Targeting" variant="filled">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Send visitors from some countries, on some devices or speaking some languages to another URL. The
          first rule a visitor matches wins; everyone else goes to the long URL.
        </Text>
        {rules.map((rule, index) => (
          <Paper key={rule.key} withBorder p="sm" radius="sm">
            <Stack gap="xs">
              <Group justify="space-between">
                <Text size="sm" fw={600}>
                  Rule {index + 1}
                </Text>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={() => form.removeListItem('rules', index)}
                >
                  Remove rule {index + 1}
                </Button>
              </Group>
              {rule.conditions.map((condition, at) => (
                <ConditionRow
                  key={condition.key}
                  form={form}
                  path={`rules.${index}.conditions.${at}`}
                  condition={condition}
                  label={`Rule ${index + 1} condition ${at + 1}`}
                  onRemove={
                    rule.conditions.length > 1
                      ? () => form.removeListItem(`rules.${index}.conditions`, at)
                      : undefined
                  }
                />
              ))}
              {form.errors[`rules.${index}.conditions`] && (
                <Text size="sm" c="red">
                  {form.errors[`rules.${index}.conditions`]}
                </Text>
              )}
              {rule.conditions.length < TARGETING_CONDITIONS.length && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() =>
                    form.insertListItem(`rules.${index}.conditions`, {
                      key: rowKey(),
                      type:
                        TARGETING_CONDITIONS.find(
                          (type) => !rule.conditions.some((condition) => condition.type === type),
                        ) ?? 'country',
                      values: [],
                    })
                  }
                  style={{ alignSelf: 'flex-start' }}
                >
                  Add condition
                </Button>
              )}
              <TextInput
                label={`Rule ${index + 1} URL`}
                placeholder="https://example.com/for-these-visitors"
                type="url"
                inputMode="url"
                {...form.getInputProps(`rules.${index}.url`)}
              />
            </Stack>
          </Paper>
        ))}
        {form.errors.rules && (
          <Text size="sm" c="red">
            {form.errors.rules}
          </Text>
        )}
        {rules.length < MAX_TARGETING_RULES && (
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => form.insertListItem('rules', newRule())}
            style={{ alignSelf: 'flex-start' }}
          >
            Add targeting rule
          </Button>
        )}
      </Stack>
    </Fieldset>
  );
}

/** One condition: what it looks at (a select) and the values it accepts. */
function ConditionRow({
  form,
  path,
  condition,
  label,
  onRemove,
}: {
  form: LinkForm;
  path: string;
  condition: RuleConditionValues;
  label: string;
  onRemove: (() => void) | undefined;
}) {
  const values = (() => {
    const common = {
      label: `${label} values`,
      value: condition.values,
      style: { flex: 1 },
    };
    if (condition.type === 'device')
      return (
        <MultiSelect
          {...common}
          placeholder="Pick devices"
          data={TARGETING_DEVICES.map((device) => ({ value: device, label: deviceLabels[device] }))}
          onChange={(next) => form.setFieldValue(`${path}.values`, next)}
        />
      );
    const isCountry = condition.type === 'country';
    return (
      <TagsInput
        {...common}
        description={isCountry ? 'Two-letter codes: GB, FR, US' : 'Language codes: en matches en-GB too'}
        placeholder={
          isCountry ? 'Type a country code and press Enter' : 'Type a language code and press Enter'
        }
        splitChars={[',', ' ']}
        onChange={(next) =>
          form.setFieldValue(
            `${path}.values`,
            next.map((value) => (isCountry ? value.trim().toUpperCase() : value.trim().toLowerCase())),
          )
        }
      />
    );
  })();
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <Select
        label={`${label} type`}
        data={TARGETING_CONDITIONS.map((type) => ({ value: type, label: conditionLabels[type] }))}
        value={condition.type}
        allowDeselect={false}
        w={130}
        onChange={(next) => {
          if (next === null) return;
          form.setFieldValue(path, { key: condition.key, type: next as TargetingCondition, values: [] });
        }}
      />
      {values}
      {onRemove && (
        <ActionIcon variant="subtle" color="gray" onClick={onRemove} aria-label={`Remove ${label}`} mb={6}>
          <IconX size={16} />
        </ActionIcon>
      )}
    </Group>
  );
}
