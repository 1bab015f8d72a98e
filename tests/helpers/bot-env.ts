/** The environment a bot process gets in tests and the benchmark: the fakes, a temp home, UTC. */
export function botEnv(
  discord: { token: string; applicationId: string; guild: { id: string }; apiUrl: string },
  model: { baseURL: string },
  home: string,
): Record<string, string> {
  return {
    DISCORD_TOKEN: discord.token,
    DISCORD_CLIENT_ID: discord.applicationId,
    DISCORD_GUILD_ID: discord.guild.id,
    DISCORD_API_URL: discord.apiUrl,
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_MODEL: "fake-model",
    AGENTKIT_HOME: home,
    AGENTKIT_TIMEZONE: "UTC",
  };
}
